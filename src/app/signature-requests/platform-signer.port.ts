import type { Signer } from '../identity/signer.port.js';

/**
 * The platform's signing key, used for signatures by delegation and for sealing audit trails: the
 * identity server's Signer (in process in the default run, over HTTP otherwise), the key to use, and
 * the platform's issuer domain (the registrable domain of its identity URLs) bound into delegated signatures.
 */
export interface PlatformSigner {
  readonly signer: Signer;
  readonly issuerDomain: string;
  /** The key (its address); absent, the identity server's newest live key. */
  readonly pubKey?: string;
}
