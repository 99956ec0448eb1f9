/**
 * The files embedded in a PDF (its EmbeddedFiles name tree, one level of kids followed), read with pdf-lib in
 * memory: the `PdfAttachmentReader` of the command line (`proofseal verify <signed-copy.pdf>`). The browser page
 * reads them the same way in web/browser/pdf-attachment.ts (web code may not import adapters).
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
import type { AttachedFile, PdfAttachmentReader } from '../../app/signature-requests/pdf-attachments.port.js';

function fileOf(nameObj: unknown, spec: unknown): AttachedFile | null {
  if (!(spec instanceof PDFDict)) return null;
  const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return null;
  const name = nameObj instanceof PDFString || nameObj instanceof PDFHexString ? nameObj.decodeText() : '';
  return { name, bytes: decodePDFRawStream(stream).decode() };
}

export function pdfAttachmentReader(): PdfAttachmentReader {
  return {
    async embeddedFiles(pdf) {
      const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
      const tree = doc.catalog
        .lookupMaybe(PDFName.of('Names'), PDFDict)
        ?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
      if (!tree) return [];
      const kids = tree.lookupMaybe(PDFName.of('Kids'), PDFArray);
      const nodes = kids ? kids.asArray().map((k) => doc.context.lookup(k)) : [tree];
      const files: AttachedFile[] = [];
      for (const node of nodes) {
        const names = node instanceof PDFDict ? node.lookupMaybe(PDFName.of('Names'), PDFArray) : undefined;
        for (let i = 0; names && i + 1 < names.size(); i += 2) {
          const file = fileOf(names.lookup(i), names.lookup(i + 1));
          if (file) files.push(file);
        }
      }
      return files;
    },
  };
}
