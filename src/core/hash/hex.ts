/**
 * Hex helpers. Only lowercase hex is accepted as input: the API refuses upper case instead of
 * silently lowering it (docs/bitcoin.md, "Anchors and receipts as the API shows them"; `INVALID_HASH` in docs/errors.md).
 */
import { DomainError, type ErrorCode } from '../errors.js';

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** True when `value` is a string of lowercase hex pairs (optionally of exactly `byteLength` bytes). */
export function isLowerHex(value: unknown, byteLength?: number): value is string {
  if (typeof value !== 'string' || !LOWER_HEX.test(value)) return false;
  return byteLength === undefined || value.length === byteLength * 2;
}

/**
 * Decode lowercase hex into a Buffer.
 * @param hex - lowercase hex string
 * @param label - name used in the error message
 * @param byteLength - when given, the exact number of bytes expected
 * @param code - the error code to throw (default INVALID_HASH)
 * @throws DomainError when `hex` is not lowercase hex of the expected length
 */
export function hexToBytes(hex: string, label = 'hex', byteLength?: number, code: ErrorCode = 'INVALID_HASH'): Buffer {
  const value: unknown = hex;
  if (!isLowerHex(value, byteLength)) {
    const want = byteLength === undefined ? 'an even number of' : `${byteLength * 2}`;
    const got = typeof value === 'string' ? describeHexFault(value) : typeof value;
    throw new DomainError(code, `"${label}" expected ${want} lowercase hex chars, got ${got}`);
  }
  return Buffer.from(hex, 'hex');
}

function describeHexFault(value: string): string {
  if (/[A-F]/.test(value)) return 'upper-case characters';
  if (/[^0-9a-f]/.test(value)) return 'a non-hex character';
  return `${value.length}`;
}

/** Encode bytes as lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('hex');
}

/** View any Uint8Array as a Buffer without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
