/**
 * Verification of a signed message (the signature of a signature anchor) away from the caller's event
 * loop: the recovery of the public key is most of an anchor's CPU, so an API process hands it to other
 * cores. Same rules and errors as `verifySignedMessage` (core/bitcoin/signed-message.ts).
 */
export type VerifyOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface SignatureVerifier {
  /**
   * @throws DomainError INVALID_SIGNATURE when the signature is not base64 of 65 bytes; INVALID_PUBKEY
   *   when `pubKey` is neither a supported address nor a valid SEC key
   */
  verify(message: string, signatureBase64: string, pubKey: string): Promise<VerifyOutcome>;
  /** Stops the threads; verifications still queued fail. */
  close(): Promise<void>;
}
