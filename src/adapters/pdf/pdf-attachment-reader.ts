/**
 * The `PdfAttachmentReader` of the command line (`proofseal verify <signed-copy.pdf>`): the files embedded in a
 * PDF, read by the walk of embedded-files.ts, which the browser's verification page uses too.
 */
import type { PdfAttachmentReader } from '../../app/signature-requests/pdf-attachments.port.js';
import { embeddedFiles } from './embedded-files.js';

export function pdfAttachmentReader(): PdfAttachmentReader {
  return { embeddedFiles };
}
