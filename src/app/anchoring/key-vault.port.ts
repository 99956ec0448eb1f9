/**
 * Where the anchoring key lives at rest. It only ever holds the SEALED form (`v1.<iv>.<ct>.<tag>` from
 * `core/crypto/secret-box.ts`); sealing and opening happen in the wallet, never in the store.
 */
export interface KeyVault {
  /** The sealed key, or null before the first start. */
  load(): Promise<string | null>;
  /** Stores the sealed key (the first start only; the key is never replaced). */
  save(sealed: string): Promise<void>;
}
