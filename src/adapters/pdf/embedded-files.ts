/**
 * The files embedded in a PDF (its EmbeddedFiles name tree, one level of kids followed), read with pdf-lib in
 * memory: no I/O, no state. The one walk of that tree, shared by the command line's `PdfAttachmentReader`
 * (pdf-attachment-reader.ts) and the verification page, whose browser code imports this file alone of the
 * adapters (.dependency-cruiser.cjs, rule `browser-imports-only-the-pdf-walk`); so it imports nothing but pdf-lib
 * and core. The file may be hostile: its object streams are inflated under a cap before pdf-lib loads it, and each
 * attachment under its own cap (core/documents/pdf-bounds.ts).
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
} from '@cantoo/pdf-lib';
import { checkStructureBudget, inflateBounded, MAX_ATTACHMENT_BYTES } from '../../core/documents/pdf-bounds.js';

export interface EmbeddedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * An attachment's bytes: FlateDecode (what PDF writers use) inflated under `MAX_ATTACHMENT_BYTES`; no filter as
 * is; null for any other filter (never a proof bundle of ours, and a decoder without a cap).
 */
async function attachmentBytes(stream: PDFRawStream): Promise<Uint8Array | null> {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const only = filter instanceof PDFArray && filter.size() === 1 ? filter.lookup(0) : filter;
  if (only === undefined) return decodePDFRawStream(stream).decode();
  if (only === PDFName.of('FlateDecode')) return inflateBounded(stream.contents, MAX_ATTACHMENT_BYTES, 'an attachment');
  return null;
}

async function fileOf(nameObj: unknown, spec: unknown): Promise<EmbeddedFile | null> {
  if (!(spec instanceof PDFDict)) return null;
  const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return null;
  const name = nameObj instanceof PDFString || nameObj instanceof PDFHexString ? nameObj.decodeText() : '';
  const bytes = await attachmentBytes(stream);
  return bytes === null ? null : { name, bytes };
}

/**
 * Every file embedded in the PDF, in the order of its name tree.
 * @throws Error when pdf-lib cannot read the PDF; DecodeBoundError when its object streams or an attachment
 * decode past their caps
 */
export async function embeddedFiles(pdf: Uint8Array): Promise<EmbeddedFile[]> {
  await checkStructureBudget(pdf);
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const tree = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  if (!tree) return [];
  const kids = tree.lookupMaybe(PDFName.of('Kids'), PDFArray);
  const nodes = kids ? kids.asArray().map((k) => doc.context.lookup(k)) : [tree];
  const files: EmbeddedFile[] = [];
  for (const node of nodes) {
    const names = node instanceof PDFDict ? node.lookupMaybe(PDFName.of('Names'), PDFArray) : undefined;
    for (let i = 0; names && i + 1 < names.size(); i += 2) {
      const file = await fileOf(names.lookup(i), names.lookup(i + 1));
      if (file) files.push(file);
    }
  }
  return files;
}
