/**
 * Documents at rest: a file is cut into chunks of {@link CHUNK_BYTES}, each sealed with AES-256-GCM on its own,
 * so a 25 MB upload is encrypted while it streams (one chunk in memory at a time) and a range request opens
 * only the chunks it covers. The scheme follows the STREAM construction: one key per object, derived from
 * SECRET_KEY and the object's random salt; the nonce is the chunk's index and a last-chunk flag, so chunks
 * cannot be reordered, dropped from the end or moved to another object without failing authentication.
 * This module draws no randomness: the salt comes in from the caller (fresh for every object).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { DomainError } from '../errors.js';
import { derivedKey } from './derived-key.js';

/** Plaintext bytes per chunk (the last chunk may be shorter, never empty). */
export const CHUNK_BYTES = 256 * 1024;
/** The GCM tag each sealed chunk carries after its ciphertext. */
export const TAG_BYTES = 16;
export const SALT_BYTES = 16;
const HKDF_SALT = 'proofseal/document/v1';
const AAD = Buffer.from(HKDF_SALT, 'utf8');

/**
 * The name an object is stored under: HMAC-SHA256 of the file's SHA-256 under a key derived from SECRET_KEY.
 * Content-addressed (one file, one object), yet the store learns neither the hash nor the content.
 * @throws DomainError VALIDATION_FAILED on a hash that is not 64 hex characters
 */
export function objectNameOf(secretKey: string, sha256Hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex))
    throw new DomainError(
      'VALIDATION_FAILED',
      `"sha256" expected 64 lowercase hex characters, got ${sha256Hex.length}`,
    );
  const key = derivedKey(secretKey, HKDF_SALT, 'object-name');
  return createHmac('sha256', key).update(Buffer.from(sha256Hex, 'hex')).digest('hex');
}

/**
 * The AES-256 key of one object: HKDF-SHA256 from a SECRET_KEY-derived master key and the object's salt.
 * @throws DomainError VALIDATION_FAILED when `salt` is not {@link SALT_BYTES} bytes
 */
export function chunkKeyOf(secretKey: string, salt: Uint8Array): Buffer {
  if (salt.length !== SALT_BYTES)
    throw new DomainError('VALIDATION_FAILED', `"salt" expected ${SALT_BYTES} bytes, got ${salt.length}`);
  const master = derivedKey(secretKey, HKDF_SALT, 'chunk-master');
  return Buffer.from(hkdfSync('sha256', master, salt, 'chunk-key', 32));
}

/** Nonce of chunk `index`: 8 zero-padded big-endian bytes of the index, then the last-chunk flag. */
function nonceOf(index: number, last: boolean): Buffer {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new DomainError('VALIDATION_FAILED', `"index" expected a natural number, got ${index}`);
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(index), 3);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** Where a chunk is in its object: its index, and whether it is the final one (both bound into its nonce). */
export interface ChunkPlace {
  readonly index: number;
  readonly last: boolean;
}

/** Seals chunk `index` of an object (`last` for its final chunk): ciphertext then the 16-byte tag. */
export function sealChunk(key: Uint8Array, { index, last }: ChunkPlace, plaintext: Uint8Array): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonceOf(index, last));
  cipher.setAAD(AAD);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/**
 * Opens chunk `index` sealed by {@link sealChunk} with the same key and flag.
 * @throws DomainError UNAUTHORIZED when authentication fails (wrong key, wrong place, altered or truncated)
 */
export function openChunk(key: Uint8Array, { index, last }: ChunkPlace, sealed: Uint8Array): Buffer {
  if (sealed.length < TAG_BYTES) throw new DomainError('UNAUTHORIZED', `document chunk ${index} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(index, last));
  decipher.setAAD(AAD);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DomainError('UNAUTHORIZED', `document chunk ${index} fails authentication: wrong SECRET_KEY or altered`);
  }
}

/** How many chunks hold `size` plaintext bytes. */
export function chunkCount(size: number): number {
  return Math.ceil(size / CHUNK_BYTES);
}
