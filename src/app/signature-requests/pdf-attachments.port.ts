/**
 * The files a PDF carries (its EmbeddedFiles name tree): how `proofseal verify` takes the proof bundle out of a
 * signed copy or an attestation. Implemented with a PDF library in adapters/pdf (embedded-files.ts, the one walk
 * of the name tree, which the browser page's web/browser/pdf-attachment.ts uses too). Both hand the files to
 * the same pure choice (`proofBundleAmong`, core/documents/signed-copy.ts).
 */
export interface AttachedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface PdfAttachmentReader {
  /** Every file embedded in `pdf`, in the order of its name tree. @throws Error when the PDF cannot be read */
  embeddedFiles(pdf: Uint8Array): Promise<AttachedFile[]>;
}
