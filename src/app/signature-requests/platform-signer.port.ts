import type { Signer } from '../identity/signer.port.js';
import type { Store } from '../shared/store.port.js';

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
  /**
   * Present when the key signs in this process (no network call): the signer reading its key on a given
   * store, so that a signature by delegation, made inside its transaction, reads it on that transaction's
   * connection (on the embedded store the transaction holds the one connection). A signer that reads this
   * store must be given so. Without it the signer is remote: it is called before the transaction, never
   * under the request's lock (sign-by-delegation.ts).
   */
  readonly inProcess?: (store: Store) => Signer;
}
