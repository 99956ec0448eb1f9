/**
 * The Signer: what makes a platform signature of a hash, as the identity server's `GET /sign` does.
 * The main service uses it for the signatures it makes itself (signature requests signed by delegation):
 * in the default run the same code runs in process (`app/sign-hash.ts`, `localSigner`), otherwise it
 * calls a remote identity server (`adapters/identity/http-signer.ts`). Both give the same result.
 */

export interface SignRequest {
  /** SHA-256 to sign, 64 lowercase hex characters (not the hash of empty data). */
  readonly hashToSign: string;
  /**
   * `ALL`, or a comma list of `CN,O,OU,L,C,EMAILADDRESS`: the identity to bind into the signature
   * (written as an X.500 name in that order); absent = sign the hash alone.
   */
  readonly identityToSign?: string;
  /** The key (its address) to sign with; absent = the server's newest live key. */
  readonly pubKey?: string;
}

/** The identity server's signature result; adding `name` makes it a `POST /v1/anchor` body. */
export interface SignResult {
  readonly pubKey: string;
  readonly signedHash: string;
  /** Base64 bitcoin signed-message signature of `signedHash`, or of the identity-bound message. */
  readonly signature: string;
  readonly identityURL: string;
  readonly signedIdentity?: string;
  readonly signedIssuerDomain?: string;
}

export interface Signer {
  /**
   * @throws DomainError INVALID_HASH, VALIDATION_FAILED (bad request), NOT_FOUND (unknown key),
   *   KEY_REVOKED / KEY_EXPIRED (the key may not sign), UNAUTHORIZED (remote: bad token)
   */
  sign(request: SignRequest): Promise<SignResult>;
}
