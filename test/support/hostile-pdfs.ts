/**
 * Hostile PDFs of issue 32, written by hand (no binary in the repository): small files whose structure makes a
 * PDF library loop, recurse or allocate without end. Each is a well-formed file otherwise (header, objects,
 * cross-reference table with true offsets, trailer), so a reader gets as far as the trap.
 */
import { createDeflate, deflateSync } from 'node:zlib';

/** A PDF of `objects` (object n+1 is `objects[n]`, its text between `obj` and `endobj`), the trailer's extra entries. */
export function pdfOf(objects: readonly (string | Buffer)[], trailer = '', withXref = true): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let size = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    size += chunk.length;
  });
  if (withXref) {
    const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}`;
    parts.push(
      Buffer.from(
        `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${size}\n%%EOF\n`,
      ),
    );
  }
  return Buffer.concat(parts);
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';

/** A plain PDF of `pages` pages, all kids of the root (the "too many pages" case above the bound). */
export function flatPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  return pdfOf([CATALOG, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`, ...Array(pages).fill(PAGE)]);
}

/**
 * Row 1: the cross-reference stream says `/Size 1000000000 /Index [0 1000000000]` over a few bytes of data
 * (pdf-lib's parser loops 10⁹ times and its heap runs out). No classic table: the stream is the only xref.
 */
export function xrefBombPdf(size = 1_000_000_000): Buffer {
  const body = pdfOf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE], '', false);
  const data = Buffer.from([1, 0, 0]);
  const xref = Buffer.concat([
    Buffer.from(
      `4 0 obj\n<< /Type /XRef /Size ${size} /Index [0 ${size}] /W [1 1 1] /Root 1 0 R /Length ${data.length} >>\nstream\n`,
    ),
    data,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  return Buffer.concat([body, xref, Buffer.from(`startxref\n${body.length}\n%%EOF\n`)]);
}

/**
 * Row 2: a page tree of `levels` levels, each node `/Kids [X X]` naming the next one twice (a DAG): 2^levels
 * pages for a reader that walks it, from a file of a few KB.
 */
export function dagPageTreePdf(levels = 23): Buffer {
  const objects: string[] = [CATALOG];
  for (let level = 0; level < levels; level++) {
    const next = level + 3;
    objects.push(`<< /Type /Pages /Kids [${next} 0 R ${next} 0 R] /Count ${2 ** (levels - level)} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${levels + 1} 0 R /MediaBox [0 0 612 792] >>`);
  return pdfOf(objects);
}

/** Row 4: the root of the page tree lists itself among its kids: `/Kids [3 0 R 2 0 R]`. */
export function pageLoopPdf(): Buffer {
  return pdfOf([CATALOG, '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>', PAGE]);
}

/** Arrays nested `depth` deep in one object (a recursive parser's stack). */
export function deepNestingPdf(depth = 100_000): Buffer {
  const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return pdfOf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE, `<< /Deep ${nested} >>`]);
}

/** A classic cross-reference table whose subsection claims 10⁹ entries. */
export function xrefTableBombPdf(): Buffer {
  const ok = pdfOf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE]);
  return Buffer.from(ok.toString('latin1').replace(/xref\n0 4\n/, 'xref\n0 1000000000\n'), 'latin1');
}

/** Zeros deflated, `bytes` of them, without holding them (1 MiB at a time). */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const mib = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= mib.length) {
    if (!deflate.write(left >= mib.length ? mib : mib.subarray(0, left)))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * Row 3: an object stream whose FlateDecode data inflate to `bytes` (1 GiB by default: a file of ~1 MB), its
 * one object a page-tree-less dictionary; the document is otherwise a plain one-page PDF.
 */
export async function inflateBombPdf(bytes = 1024 ** 3): Promise<Buffer> {
  const data = await deflatedZeros(bytes);
  const stream = Buffer.concat([
    Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
  return pdfOf([CATALOG, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE, stream]);
}

/**
 * A one-page PDF whose page tree sits in an object stream (as pdf-lib writes them): the stream, later in the
 * file, redefines objects 2 and 3, as a reader that goes from start to end takes it.
 */
export function objectStreamPdf(): Buffer {
  const pages = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  const header = `2 0 3 ${pages.length + 1} `;
  const data = deflateSync(Buffer.from(`${header}${pages} ${PAGE}`));
  const stream = Buffer.concat([
    Buffer.from(
      `<< /Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    ),
    data,
    Buffer.from('\nendstream'),
  ]);
  return pdfOf([CATALOG, '<< /Type /Pages /Kids [] /Count 0 >>', 'null', stream]);
}

/** Every hostile shape above that is cheap to make, by name (the 1 GiB bomb is made by its own tests). */
export function hostilePdfs(): Record<string, Buffer> {
  return {
    'xref stream /Size 1e9': xrefBombPdf(),
    'page tree DAG of 23 levels': dagPageTreePdf(23),
    'page tree loop': pageLoopPdf(),
    'arrays nested 100,000 deep': deepNestingPdf(),
    'xref table of 1e9 entries': xrefTableBombPdf(),
  };
}

/** The shapes kept small for the fuzz corpus (test/support/fuzz.ts): bodies of a few hundred bytes to 2 KB. */
export function hostilePdfCorpus(): Buffer[] {
  return [
    xrefBombPdf(),
    dagPageTreePdf(23),
    pageLoopPdf(),
    deepNestingPdf(1000),
    xrefTableBombPdf(),
    objectStreamPdf(),
  ];
}
