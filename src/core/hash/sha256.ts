/** SHA-256 over bytes and UTF-8 strings, with node:crypto. */
import * as nodeCrypto from 'node:crypto';

const { createHash } = nodeCrypto;

/**
 * One-shot `crypto.hash` (Node >= 20.12) is ~1.6x faster than createHash on 64-byte inputs. Asked for a
 * string it is faster still: its `'buffer'` output costs ~0.4 µs more than a binary (latin1) digest turned into a
 * Buffer (Node 20), and a base64 digest needs no Buffer at all.
 */
const oneShot: ((data: Uint8Array | string) => Buffer) | undefined =
  typeof nodeCrypto.hash === 'function'
    ? (data) => Buffer.from(nodeCrypto.hash('sha256', data, 'binary'), 'latin1')
    : undefined;

const oneShotBase64: ((text: string) => string) | undefined =
  typeof nodeCrypto.hash === 'function' ? (text) => nodeCrypto.hash('sha256', text, 'base64') : undefined;

/** SHA-256 of raw bytes, as a 32-byte Buffer. */
export function sha256(data: Uint8Array): Buffer {
  return oneShot ? oneShot(data) : createHash('sha256').update(data).digest();
}

/** SHA-256 of raw bytes, as 64 lowercase hex chars. */
export function sha256Hex(data: Uint8Array): string {
  return typeof nodeCrypto.hash === 'function'
    ? nodeCrypto.hash('sha256', data, 'hex')
    : createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the UTF-8 encoding of `text`, as a 32-byte Buffer. */
export function sha256Utf8(text: string): Buffer {
  return oneShot ? oneShot(text) : createHash('sha256').update(text, 'utf8').digest();
}

/** SHA-256 of the UTF-8 encoding of `text`, in base64 (44 chars). */
export function sha256Utf8Base64(text: string): string {
  return oneShotBase64 ? oneShotBase64(text) : createHash('sha256').update(text, 'utf8').digest('base64');
}

/** SHA-256 of the UTF-8 encoding of `text`, as 64 lowercase hex chars. */
export function sha256Utf8Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 of the concatenation `a ‖ b` (no copy of the inputs). */
export function sha256Pair(a: Uint8Array, b: Uint8Array): Buffer {
  return createHash('sha256').update(a).update(b).digest();
}

/** Bitcoin's double SHA-256: SHA-256(SHA-256(data)). */
export function doubleSha256(data: Uint8Array): Buffer {
  return sha256(sha256(data));
}
