/**
 * The files embedded in a PDF (its EmbeddedFiles name tree), read with pdf-lib in the browser: the
 * verification page takes the proof bundle out of an attestation PDF this way, without uploading it.
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
import { proofBundleAmong } from '../../core/documents/signed-copy.js';

export interface EmbeddedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** True when the bytes start as a PDF does. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return bytes.length > 4 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}

function fileOf(nameObj: unknown, spec: unknown): EmbeddedFile | null {
  if (!(spec instanceof PDFDict)) return null;
  const ef = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
  const stream = ef?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return null;
  const name = nameObj instanceof PDFString || nameObj instanceof PDFHexString ? nameObj.decodeText() : '';
  return { name, bytes: decodePDFRawStream(stream).decode() };
}

/** Every file embedded in the PDF, in the order of its name tree (one level of kids is followed). */
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

/** The proof bundle an attestation PDF or a signed copy carries (its JSON file with `signatureReceipts`); null when none. */
export async function bundleInPdf(pdf: Uint8Array): Promise<unknown> {
  return proofBundleAmong(await embeddedFiles(pdf));
}
