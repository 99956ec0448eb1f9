/**
 * The proof bundle an attestation PDF carries, read in the browser: the verification page takes it out this way,
 * without uploading the PDF. The files embedded in the PDF are read by the command line's own walk
 * (adapters/pdf/embedded-files.ts: pdf-lib in memory), the one adapter file browser code may import.
 */
import { embeddedFiles } from '../../adapters/pdf/embedded-files.js';
import { proofBundleAmong } from '../../core/documents/signed-copy.js';

/** True when the bytes start as a PDF does. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return bytes.length > 4 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}

/** The proof bundle an attestation PDF or a signed copy carries (its JSON file with `signatureReceipts`); null when none. */
export async function bundleInPdf(pdf: Uint8Array): Promise<unknown> {
  return proofBundleAmong(await embeddedFiles(pdf));
}
