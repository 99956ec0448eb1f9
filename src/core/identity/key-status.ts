export type IdentityKeyStatus = 'valid' | 'expired' | 'revoked';

/** A revoked key stays revoked whatever its expiration; an expired one expired at `expiration`. */
export function identityKeyStatus(
  key: { readonly revokedAt: number | null; readonly expiration: number | null },
  now: number,
): IdentityKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiration !== null && key.expiration <= now) return 'expired';
  return 'valid';
}

/** The identity URL of a key: `<IDENTITY_PUBLIC_URL>/identity?pubKey=<address>`. */
export function identityUrlOf(publicUrl: string, pubKey: string): string {
  return `${publicUrl}/identity?pubKey=${encodeURIComponent(pubKey)}`;
}
