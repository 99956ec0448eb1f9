/**
 * Reading an RFC 3161 time-stamp token of a proof bundle (`rfc3161Timestamps`): what it says (imprint, time,
 * serial, the signer's certificate) and whether its CMS signature holds with the certificate it carries.
 * Implemented with PKI.js in adapters/pdf; `verifyProofBundle` compares the imprint itself.
 */
export interface TimestampTokenContent {
  /** The imprint's hash algorithm, an OID (SHA-256: 2.16.840.1.101.3.4.2.1). */
  readonly hashAlgorithm: string;
  /** The hashed message, lowercase hex. */
  readonly imprint: string;
  /** The authority's time (`genTime`), ISO 8601. */
  readonly genTime: string;
  /** The token's serial number, hex. */
  readonly serialNumber: string;
  /** Subject and issuer of the certificate that signed the token (`CN=…, O=…`); null when it carries none. */
  readonly tsaSubject: string | null;
  readonly tsaIssuer: string | null;
}

export type TimestampSignature =
  | { readonly valid: true }
  /** `valid: null`: not checked (the imprint is not of the message, so the signature cannot be told apart). */
  | { readonly valid: false | null; readonly reason: string };

export type TimestampTokenReading =
  | { readonly readable: true; readonly content: TimestampTokenContent; readonly signature: TimestampSignature }
  | { readonly readable: false; readonly reason: string };

export interface TimestampTokenReader {
  /**
   * Reads the DER token and checks its signature over `message` (the 32 bytes stamped), with the certificate
   * inside the token; no trust anchor is consulted (whose certificate it is, is the reader's to judge). Never
   * throws: an unreadable token is `readable: false` with the reason.
   */
  read(token: Uint8Array, message: Uint8Array): Promise<TimestampTokenReading>;
}
