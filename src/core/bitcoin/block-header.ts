/**
 * The 80-byte Bitcoin block header read field by field, and the proof-of-work rule every header keeps:
 * its SHA-256d, read as a little-endian number, is at most the target its own `bits` encode. A header
 * that meets it cost the work its target says, which a forger who only wants a Merkle root to match
 * cannot skip; whether the block is in the best chain is for a header source to say.
 */
import { isLowerHex } from '../hash/hex.js';
import { doubleSha256 } from '../hash/sha256.js';

export interface BlockHeader {
  readonly version: number;
  /** Previous block's hash, display order. */
  readonly prevBlockHash: string;
  /** Merkle root of the block's transactions, display order. */
  readonly merkleRoot: string;
  /** Block time, seconds since 1970 (the miner's claim, bounded by the consensus rules). */
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
  /** SHA-256d of the header, display order. */
  readonly hash: string;
}

const reversedHex = (bytes: Uint8Array): string => Buffer.from(bytes).reverse().toString('hex');

/** Reads a serialized header (160 lowercase hex chars). @throws Error for anything else */
export function parseBlockHeader(hex: string): BlockHeader {
  if (!isLowerHex(hex, 80)) throw new Error('a block header is 160 lowercase hex chars');
  const b = Buffer.from(hex, 'hex');
  return {
    version: b.readInt32LE(0),
    prevBlockHash: reversedHex(b.subarray(4, 36)),
    merkleRoot: reversedHex(b.subarray(36, 68)),
    time: b.readUInt32LE(68),
    bits: b.readUInt32LE(72),
    nonce: b.readUInt32LE(76),
    hash: reversedHex(doubleSha256(b)),
  };
}

/**
 * The target `bits` encode (compact form: one exponent byte, three mantissa bytes); null for a negative
 * or zero target or one beyond 256 bits, which no valid header has.
 */
export function targetOfBits(bits: number): bigint | null {
  const exponent = bits >>> 24;
  const mantissa = bits & 0x007fffff;
  if ((bits & 0x00800000) !== 0 || mantissa === 0) return null;
  const target =
    exponent <= 3 ? BigInt(mantissa >>> (8 * (3 - exponent))) : BigInt(mantissa) << BigInt(8 * (exponent - 3));
  return target === 0n || target >= 1n << 256n ? null : target;
}

/** True when the header's hash is at most the target of its own `bits`. */
export function meetsOwnTarget(header: BlockHeader): boolean {
  const target = targetOfBits(header.bits);
  return target !== null && BigInt(`0x${header.hash}`) <= target;
}
