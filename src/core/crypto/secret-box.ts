import { createCipheriv, createDecipheriv } from 'node:crypto';
import { DomainError } from '../errors.js';
import { derivedKey } from './derived-key.js';

/**
 * Secrets at rest (the anchoring key first): AES-256-GCM under a key derived from the configured
 * `SECRET_KEY` with HKDF-SHA256, one key per purpose label, so a secret sealed for 'anchoring-key'
 * cannot be opened as anything else. The purpose is also the GCM additional data.
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url without padding; the IV is 12 bytes and is
 * passed in by the caller (this module draws no randomness): it must be fresh for every seal.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Fixed HKDF salt: domain separation from any other use of SECRET_KEY. */
const HKDF_SALT = 'proofseal/secret-box/v1';

/**
 * The 32-byte AES key for `purpose`: HKDF-SHA256(ikm = UTF-8 `secretKey`, salt, info = purpose), derived once.
 * @throws DomainError VALIDATION_FAILED on an empty secret key or purpose.
 */
export function deriveSecretBoxKey(secretKey: string, purpose: string): Buffer {
  if (!secretKey) throw new DomainError('VALIDATION_FAILED', '"secretKey" expected a non-empty string');
  if (!purpose) throw new DomainError('VALIDATION_FAILED', '"purpose" expected a non-empty label');
  return derivedKey(secretKey, HKDF_SALT, purpose);
}

/**
 * Encrypts `plaintext` for `purpose`.
 * @param iv 12 fresh random bytes (never reuse one with the same key).
 * @returns `v1.<iv>.<ciphertext>.<tag>` (base64url parts).
 * @throws DomainError VALIDATION_FAILED when `iv` is not 12 bytes.
 */
export function sealSecret(plaintext: Uint8Array, secretKey: string, purpose: string, iv: Uint8Array): string {
  if (!(iv instanceof Uint8Array) || iv.length !== IV_BYTES) {
    throw new DomainError('VALIDATION_FAILED', `"iv" expected ${IV_BYTES} bytes, got ${iv?.length}`);
  }
  const cipher = createCipheriv('aes-256-gcm', deriveSecretBoxKey(secretKey, purpose), iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const parts = [Buffer.from(iv), ct, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

/**
 * Decrypts a value made by {@link sealSecret} with the same `secretKey` and `purpose`.
 * @throws DomainError VALIDATION_FAILED on a malformed value or unknown version;
 *   UNAUTHORIZED when authentication fails (wrong SECRET_KEY, wrong purpose or tampered data).
 */
export function openSecret(sealed: string, secretKey: string, purpose: string): Uint8Array {
  const { iv, ct, tag } = parseSealed(sealed);
  const decipher = createDecipheriv('aes-256-gcm', deriveSecretBoxKey(secretKey, purpose), iv);
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return new Uint8Array(Buffer.concat([decipher.update(ct), decipher.final()]));
  } catch {
    throw new DomainError(
      'UNAUTHORIZED',
      `secret-box: cannot open the "${purpose}" secret: wrong SECRET_KEY or altered data`,
    );
  }
}

function parseSealed(sealed: string): { iv: Buffer; ct: Buffer; tag: Buffer } {
  const parts = typeof sealed === 'string' ? sealed.split('.') : [];
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new DomainError('VALIDATION_FAILED', `secret-box: expected "${VERSION}.<iv>.<ct>.<tag>"`);
  }
  const [iv, ct, tag] = parts.slice(1).map(decodeB64url) as [Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `secret-box: expected a ${IV_BYTES}-byte iv and a ${TAG_BYTES}-byte tag`,
    );
  }
  return { iv, ct, tag };
}

function decodeB64url(part: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new DomainError('VALIDATION_FAILED', 'secret-box: parts must be base64url');
  return Buffer.from(part, 'base64url');
}
