/**
 * Signs a finished PDF (PAdES, docs/attestation.md) as an incremental update: the bytes given are the exact
 * prefix of the result, so signatures the document already carries stay valid. A function over PDF bytes,
 * for the attestation and for any other PDF the service hands out.
 */
export interface PdfSigner {
  sign(pdf: Uint8Array): Promise<Uint8Array>;
}
