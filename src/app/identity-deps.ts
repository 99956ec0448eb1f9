import type { AppDeps } from './deps.js';
import type { IdentityKey } from './ports/identity.port.js';

/** What the identity use cases need beyond the store: the secret that seals keys and the public address. */
export interface IdentitySettings {
  /** SECRET_KEY: identity keys are sealed with it at rest. */
  readonly secretKey: string;
  /** IDENTITY_PUBLIC_URL, without a trailing slash: the base of every identity URL. */
  readonly publicUrl: string;
}

export type IdentityDeps = Pick<AppDeps, 'store' | 'clock' | 'random'> & { readonly identity: IdentitySettings };

export type IdentityKeyStatus = 'valid' | 'expired' | 'revoked';

/** A revoked key stays revoked whatever its expiration; an expired one expired at `expiration`. */
export function identityKeyStatus(key: IdentityKey, now: number): IdentityKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiration !== null && key.expiration <= now) return 'expired';
  return 'valid';
}

/** The identity URL of a key: `<IDENTITY_PUBLIC_URL>/identity?pubKey=<address>`. */
export function identityUrlOf(publicUrl: string, pubKey: string): string {
  return `${publicUrl}/identity?pubKey=${encodeURIComponent(pubKey)}`;
}
