/**
 * Signer secrets. A signer's secret (the API's `signeeId`, the link's key) is never stored: it is derived again when needed (for e-mails)
 * from SECRET_KEY and a random salt kept with the signer, and looked up by a second keyed hash.
 *   secret     = base64url(HMAC-SHA256(K_id, salt))          (salt: 32 random bytes → 256-bit secret)
 *   lookupHash = HMAC-SHA256(K_lookup, UTF-8 secret)          (stored, unique)
 * K_id and K_lookup are HKDF-SHA256 keys derived from SECRET_KEY with distinct labels (`signee-id`,
 * `signee-lookup`: persisted in effect, since every link handed out depends on them, so they keep the old word), so the stored
 * values alone (a database dump) give neither the secrets nor a way to test guesses.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../crypto/derived-key.js';
import { fail } from '../errors.js';

export const SIGNER_SALT_BYTES = 32;
const HKDF_SALT = 'proofseal/signer-secret/v1';
/** The form of a signer's secret: 43 base64url characters (256 bits). */
const SIGNER_SECRET_FORM = /^[A-Za-z0-9_-]{43}$/;

const subKey = (secretKey: string, label: string): Buffer => derivedKey(secretKey, HKDF_SALT, label);

/**
 * The secret of a signer from its stored salt.
 * @throws DomainError VALIDATION_FAILED when the salt is not 32 bytes or the key is empty
 */
export function deriveSignerSecret(secretKey: string, salt: Uint8Array): string {
  if (salt.length !== SIGNER_SALT_BYTES) fail('VALIDATION_FAILED', `signer salt expected ${SIGNER_SALT_BYTES} bytes`);
  return createHmac('sha256', subKey(secretKey, 'signee-id')).update(salt).digest('base64url');
}

/**
 * The salt (hex, 16 bytes) of the commitment to a signer's e-mail in the identity a delegated signature binds
 * (core/signature-requests/audit-commitment.ts): derived from the signer's stored random salt under its own key,
 * so it needs no storage of its own, and giving it out (an opening) tells nothing of the secret.
 */
export function signedEmailSalt(secretKey: string, salt: Uint8Array): string {
  return createHmac('sha256', subKey(secretKey, 'signed-email')).update(salt).digest().subarray(0, 16).toString('hex');
}

/** True when the text has the form of a signer's secret (anything else is unknown without a lookup). */
export function looksLikeSignerSecret(value: string): boolean {
  return SIGNER_SECRET_FORM.test(value);
}

/**
 * The stored lookup value of a signer's secret.
 * @throws DomainError VALIDATION_FAILED when the key is empty
 */
export function signerLookupHash(secretKey: string, signerSecret: string): Buffer {
  return createHmac('sha256', subKey(secretKey, 'signee-lookup')).update(signerSecret, 'utf8').digest();
}

/** Constant-time comparison of two lookup hashes. */
export function sameLookupHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
