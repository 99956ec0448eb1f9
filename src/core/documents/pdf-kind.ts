/** Whether a file is taken for a PDF: by its type, or by its first bytes (`%PDF-`), as viewers do. */
export function isPdf(contentType: string, head: Uint8Array): boolean {
  return contentType === 'application/pdf' || Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-';
}
