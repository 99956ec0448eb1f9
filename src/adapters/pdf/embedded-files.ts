/**
 * The files embedded in a PDF (its EmbeddedFiles name tree, one level of kids followed), read with pdf-lib in
 * memory: no I/O, no state. The one walk of that tree, shared by the command line's `PdfAttachmentReader`
 * (pdf-attachment-reader.ts) and the verification page, whose browser code imports this file alone of the
 * adapters (.dependency-cruiser.cjs, rule `browser-imports-only-the-pdf-walk`); so it imports nothing but pdf-lib.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';

export interface EmbeddedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

function fileOf(nameObj: unknown, spec: unknown): EmbeddedFile | null {
  if (!(spec instanceof PDFDict)) return null;
  const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return null;
  const name = nameObj instanceof PDFString || nameObj instanceof PDFHexString ? nameObj.decodeText() : '';
  return { name, bytes: decodePDFRawStream(stream).decode() };
}

/** Every file embedded in the PDF, in the order of its name tree. @throws Error when pdf-lib cannot read the PDF */
export async function embeddedFiles(pdf: Uint8Array): Promise<EmbeddedFile[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const tree = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  if (!tree) return [];
  const kids = tree.lookupMaybe(PDFName.of('Kids'), PDFArray);
  const nodes = kids ? kids.asArray().map((k) => doc.context.lookup(k)) : [tree];
  const files: EmbeddedFile[] = [];
  for (const node of nodes) {
    const names = node instanceof PDFDict ? node.lookupMaybe(PDFName.of('Names'), PDFArray) : undefined;
    for (let i = 0; names && i + 1 < names.size(); i += 2) {
      const file = fileOf(names.lookup(i), names.lookup(i + 1));
      if (file) files.push(file);
    }
  }
  return files;
}
