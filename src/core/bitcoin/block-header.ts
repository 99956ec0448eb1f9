/**
 * Bitcoin block headers (80 bytes): their fields, their proof of work, and a chain of them read from a headers
 * file, so that a verifier holding nothing but headers it trusts can say which block is at which height.
 */
import { doubleSha256 } from '../hash/sha256.js';

export const HEADER_BYTES = 80;

export interface BlockHeader {
  /** SHA-256d of the 80 bytes, RPC display order (reversed). */
  readonly hash: string;
  /** The previous block's hash, display order. */
  readonly previousHash: string;
  /** The Merkle root of the block's transactions, display order. */
  readonly merkleRoot: string;
  /** Seconds since the epoch. */
  readonly time: number;
  /** The compact target (nBits), 8 hex chars as RPC shows it. */
  readonly bits: string;
}

const display = (bytes: Uint8Array) => Buffer.from(bytes).reverse().toString('hex');

/** The fields of an 80-byte header. @throws RangeError when it is not 80 bytes */
export function parseBlockHeader(header: Uint8Array): BlockHeader {
  if (header.length !== HEADER_BYTES) throw new RangeError(`a block header is 80 bytes, got ${header.length}`);
  const b = Buffer.from(header.buffer, header.byteOffset, header.length);
  return {
    hash: display(doubleSha256(b)),
    previousHash: display(b.subarray(4, 36)),
    merkleRoot: display(b.subarray(36, 68)),
    time: b.readUInt32LE(68),
    bits: b.readUInt32LE(72).toString(16).padStart(8, '0'),
  };
}

/**
 * The target a compact nBits encodes (as Bitcoin Core's `SetCompact`), or null when it is negative, zero or
 * overflows 256 bits: such bits can never be met.
 */
export function targetOfBits(bits: number): bigint | null {
  const exponent = bits >>> 24;
  const mantissa = bits & 0x007fffff;
  if (mantissa === 0 || (bits & 0x00800000) !== 0) return null;
  const target =
    exponent <= 3 ? BigInt(mantissa >>> (8 * (3 - exponent))) : BigInt(mantissa) << BigInt(8 * (exponent - 3));
  if (target === 0n || target >= 1n << 256n) return null;
  return target;
}

/**
 * True when the header's hash, read as a little-endian 256-bit number, is at most the target its own nBits
 * encodes: the work was done. (Whether nBits is the difficulty the chain required at that height is the
 * header source's business: a node, or a headers file the reader trusts.)
 */
export function hasProofOfWork(header: Uint8Array): boolean {
  if (header.length !== HEADER_BYTES) return false;
  const b = Buffer.from(header.buffer, header.byteOffset, header.length);
  const target = targetOfBits(b.readUInt32LE(72));
  if (target === null) return false;
  return BigInt(`0x${display(doubleSha256(b))}`) <= target;
}

/** Consecutive headers from `firstHeight` on, each linked to the one before and each with its proof of work. */
export interface HeaderChain {
  readonly firstHeight: number;
  /** Block hashes, display order, index 0 at `firstHeight`. */
  readonly hashes: readonly string[];
  /** The block hash at `height`, or null when the chain does not reach it. */
  hashAt(height: number): string | null;
  readonly tipHeight: number;
}

/** Why a headers file was refused (the line or the height names where). */
export class HeadersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeadersFileError';
  }
}

const HEX_HEADER = /^[0-9a-fA-F]{160}$/;

/**
 * Reads a headers file (docs/attestation.md, "Checking a proof bundle with no server of ours") in either form:
 * - binary: raw 80-byte headers concatenated, from height 0 (the genesis block) on;
 * - text: one header a line, `<height> <160 hex chars>` (or the hex alone, heights then counting from 0);
 *   empty lines and lines starting with `#` are skipped; heights must follow each other.
 * Every header must link to the one before (its previous-block hash) and carry its proof of work.
 * @throws HeadersFileError naming the first fault
 */
export function parseHeadersFile(file: Uint8Array): HeaderChain {
  const entries = looksLikeText(file) ? textEntries(file) : binaryEntries(file);
  if (entries.length === 0) throw new HeadersFileError('the headers file holds no header');
  const hashes: string[] = [];
  const firstHeight = entries[0]!.height;
  let previous: string | null = null;
  for (const { height, header, where } of entries) {
    if (height !== firstHeight + hashes.length)
      throw new HeadersFileError(`${where}: height ${height} does not follow ${firstHeight + hashes.length - 1}`);
    const parsed = parseBlockHeader(header);
    if (previous !== null && parsed.previousHash !== previous)
      throw new HeadersFileError(
        `${where}: the header at height ${height} does not link to the one before (it names ${parsed.previousHash}, the file has ${previous})`,
      );
    if (!hasProofOfWork(header))
      throw new HeadersFileError(`${where}: the header at height ${height} (${parsed.hash}) lacks its proof of work`);
    hashes.push(parsed.hash);
    previous = parsed.hash;
  }
  return {
    firstHeight,
    hashes,
    tipHeight: firstHeight + hashes.length - 1,
    hashAt: (height) =>
      height >= firstHeight && height - firstHeight < hashes.length ? hashes[height - firstHeight]! : null,
  };
}

interface Entry {
  readonly height: number;
  readonly header: Uint8Array;
  readonly where: string;
}

/** Text when every byte is printable ASCII or white space (a binary file of headers is not). */
function looksLikeText(file: Uint8Array): boolean {
  const sample = file.subarray(0, 4096);
  return sample.every((c) => c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0x7f));
}

function binaryEntries(file: Uint8Array): Entry[] {
  if (file.length % HEADER_BYTES !== 0)
    throw new HeadersFileError(`a binary headers file is a multiple of 80 bytes, this one is ${file.length}`);
  const entries: Entry[] = [];
  for (let i = 0; i * HEADER_BYTES < file.length; i += 1)
    entries.push({
      height: i,
      header: file.subarray(i * HEADER_BYTES, (i + 1) * HEADER_BYTES),
      where: `byte ${i * HEADER_BYTES}`,
    });
  return entries;
}

function textEntries(file: Uint8Array): Entry[] {
  const lines = Buffer.from(file.buffer, file.byteOffset, file.length).toString('latin1').split('\n');
  const entries: Entry[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `line ${i + 1}`;
    const parts = line.split(/\s+/);
    const hex = parts.length === 1 ? parts[0]! : parts[1]!;
    if (parts.length > 2 || !HEX_HEADER.test(hex))
      throw new HeadersFileError(`${where}: expected "<height> <160 hex chars>"`);
    const height = parts.length === 1 ? entries.length : Number(parts[0]);
    if (!/^\d+$/.test(parts.length === 1 ? '0' : parts[0]!) || !Number.isSafeInteger(height))
      throw new HeadersFileError(`${where}: "${parts[0]}" is not a height`);
    entries.push({ height, header: Buffer.from(hex, 'hex'), where });
  });
  return entries;
}
