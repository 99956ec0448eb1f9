/** SHA-256 over bytes and UTF-8 strings, with node:crypto. */
import * as nodeCrypto from 'node:crypto';

const { createHash } = nodeCrypto;

/** One-shot `crypto.hash` (Node >= 20.12) is ~1.6x faster than createHash on 64-byte inputs. */
const oneShot: ((data: Uint8Array) => Buffer) | undefined =
  typeof nodeCrypto.hash === 'function' ? (data) => nodeCrypto.hash('sha256', data, 'buffer') : undefined;

const oneShotText: ((text: string) => Buffer) | undefined =
  typeof nodeCrypto.hash === 'function' ? (text) => nodeCrypto.hash('sha256', text, 'buffer') : undefined;

/** SHA-256 of raw bytes, as a 32-byte Buffer. */
export function sha256(data: Uint8Array): Buffer {
  return oneShot ? oneShot(data) : createHash('sha256').update(data).digest();
}

/** SHA-256 of raw bytes, as 64 lowercase hex chars. */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the UTF-8 encoding of `text`, as a 32-byte Buffer. */
export function sha256Utf8(text: string): Buffer {
  return oneShotText ? oneShotText(text) : createHash('sha256').update(text, 'utf8').digest();
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
