/**
 * The identity server's keys and tokens, as the use cases see them. Keys are stored with their secret
 * key sealed (never in clear); tokens only as a hash.
 */
import type { IdentityFields } from '../../core/identity/x500-name.js';

/** The identity a key vouches for: `commonName` always set, the other fields when given. */
export type KeyIdentity = IdentityFields & { readonly commonName: string };

export interface IdentityKey {
  readonly id: string;
  readonly name: string;
  /** The key's address (P2PKH, mainnet form): the `pubKey` of its signatures. */
  readonly pubKey: string;
  /** The compressed SEC public key, hex. */
  readonly publicKey: string;
  /** The 32-byte secret key sealed with SECRET_KEY (`v1.…`, purpose {@link IDENTITY_KEY_PURPOSE}). */
  readonly privateKeySealed: string;
  readonly identity: KeyIdentity;
  /** ms; null = never expires. */
  readonly expiration: number | null;
  readonly revokedAt: number | null;
  readonly created: number;
}

/** The secret-box purpose label of identity keys. */
export const IDENTITY_KEY_PURPOSE = 'identity-key';

export interface IdentityToken {
  readonly id: string;
  readonly name: string;
  readonly created: number;
  readonly lastUsed: number | null;
  readonly revokedAt: number | null;
}

export interface IdentityKeyRepository {
  /** Inserts; resolves false when a key with this pubKey exists. */
  insert(key: IdentityKey): Promise<boolean>;
  findByPubKey(pubKey: string): Promise<IdentityKey | null>;
  /** The newest key neither revoked nor expired at `now`, or null. */
  findNewestLive(now: number): Promise<IdentityKey | null>;
  /** Every key, newest first. */
  list(): Promise<IdentityKey[]>;
  count(): Promise<number>;
  /**
   * True when this store holds a signature anchor made by the key for `signedIdentity`: an identity the
   * platform signed on its holder's behalf (a signature by delegation).
   */
  hasSignedFor(pubKey: string, signedIdentity: string): Promise<boolean>;
  /** Revokes a key not yet revoked; resolves false when none matched. */
  revoke(pubKey: string, now: number): Promise<boolean>;
}

export interface IdentityTokenRepository {
  insert(token: IdentityToken, tokenHash: string): Promise<void>;
  /** The live (not revoked) token with this hash, or null. */
  findLiveByHash(tokenHash: string): Promise<IdentityToken | null>;
  list(): Promise<IdentityToken[]>;
  /** Revokes the token with this hash or id; resolves false when nothing live matched. */
  revoke(match: { tokenHash?: string; id?: string }, now: number): Promise<boolean>;
  /** Records a use (at most once a minute). */
  touch(id: string, now: number): Promise<void>;
}
