/**
 * Signs a finished PDF (PAdES, docs/attestation.md) as an incremental update: the bytes given are the exact
 * prefix of the result, so signatures the document already carries stay valid. A function over PDF bytes,
 * for the attestation and for any other PDF the service hands out.
 */
export interface PdfSigner {
  /**
   * @throws DomainError NOT_READY when it cannot sign now (no TSA answered, the certificate unusable);
   *   SIGNED_COPY_NOT_AVAILABLE when the PDF (a signed copy holding a user's document) is refused by the PDF
   *   worker's bounds
   */
  sign(pdf: Uint8Array): Promise<Uint8Array>;
}
