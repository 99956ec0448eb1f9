/** Bitcoin's CompactSize unsigned integer ("varint" in the signed-message format and transactions). */
import { DomainError } from '../errors.js';
import { asBuffer } from '../hash/hex.js';

/**
 * Encode `n` as a CompactSize.
 * @throws DomainError BAD_REQUEST when `n` is not a non-negative safe integer
 */
export function encodeCompactSize(n: number): Buffer {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new DomainError('BAD_REQUEST', `"n" expected a non-negative integer, got ${n}`);
  if (n < 0xfd) return Buffer.from([n]);
  if (n <= 0xffff) return withPrefix(0xfd, 2, (b) => b.writeUInt16LE(n, 1));
  if (n <= 0xffffffff) return withPrefix(0xfe, 4, (b) => b.writeUInt32LE(n, 1));
  return withPrefix(0xff, 8, (b) => b.writeBigUInt64LE(BigInt(n), 1));
}

function withPrefix(prefix: number, size: number, write: (b: Buffer) => void): Buffer {
  const b = Buffer.alloc(1 + size);
  b[0] = prefix;
  write(b);
  return b;
}

/**
 * Read a CompactSize at `offset`.
 * @returns the value and the offset just after it
 * @throws DomainError BAD_REQUEST when the data ends early or the value exceeds 2^53
 */
export function readCompactSize(data: Uint8Array, offset: number): { value: number; next: number } {
  const b = asBuffer(data);
  const first = need(b, offset, 1)[offset];
  if (first < 0xfd) return { value: first, next: offset + 1 };
  if (first === 0xfd) return { value: need(b, offset, 3).readUInt16LE(offset + 1), next: offset + 3 };
  if (first === 0xfe) return { value: need(b, offset, 5).readUInt32LE(offset + 1), next: offset + 5 };
  const big = need(b, offset, 9).readBigUInt64LE(offset + 1);
  if (big > BigInt(Number.MAX_SAFE_INTEGER))
    throw new DomainError('BAD_REQUEST', `compact size at ${offset} is too large`);
  return { value: Number(big), next: offset + 9 };
}

function need(b: Buffer, offset: number, length: number): Buffer {
  if (offset < 0 || offset + length > b.length) {
    throw new DomainError(
      'BAD_REQUEST',
      `expected ${length} more bytes at offset ${offset}, data is ${b.length} bytes`,
    );
  }
  return b;
}
