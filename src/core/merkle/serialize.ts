/**
 * Compact storage form of a tree's levels: one header then every node, level by level.
 *
 *   byte 0      format version (1)
 *   bytes 1..4  leaf count, unsigned 32-bit big-endian
 *   then        level 0 nodes, level 1 nodes, …, the root (32 bytes each)
 *
 * Level sizes follow from the leaf count, so any node's byte offset is computable: a store can
 * fetch just the log2(n) nodes of one path (e.g. with SQL `substring` on a bytea).
 */
import { DomainError } from '../errors.js';
import { asBuffer } from '../hash/hex.js';
import { proofFromNodes, proofNodeLocations, type ProofStep } from './proof.js';
import { levelCounts, NODE_SIZE, type MerkleTree } from './tree.js';

const FORMAT_VERSION = 1;
/** Bytes before the first node. */
export const HEADER_SIZE = 5;

/** Serialise a tree's levels. */
export function serializeTree(tree: MerkleTree): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt8(FORMAT_VERSION, 0);
  header.writeUInt32BE(tree.leafCount, 1);
  return Buffer.concat([header, ...tree.levels]);
}

/** Size in bytes of the serialised form of a tree of `leafCount` leaves. */
export function serializedSize(leafCount: number): number {
  return HEADER_SIZE + levelCounts(leafCount).reduce((sum, n) => sum + n, 0) * NODE_SIZE;
}

/**
 * Read the leaf count from a serialised tree's header.
 * @throws DomainError BAD_REQUEST on an unknown version or a short header
 */
export function readLeafCount(header: Uint8Array): number {
  if (header.length < HEADER_SIZE)
    throw new DomainError('BAD_REQUEST', `"tree" expected at least ${HEADER_SIZE} bytes, got ${header.length}`);
  if (header[0] !== FORMAT_VERSION)
    throw new DomainError('BAD_REQUEST', `"tree" expected format version ${FORMAT_VERSION}, got ${header[0]}`);
  return asBuffer(header).readUInt32BE(1);
}

/**
 * Deserialise levels; the level Buffers are views into `data` (no copy).
 * @throws DomainError BAD_REQUEST when the header or the length is wrong
 */
export function deserializeTree(data: Buffer): MerkleTree {
  const leafCount = readLeafCount(data);
  const expected = serializedSize(leafCount);
  if (data.length !== expected)
    throw new DomainError('BAD_REQUEST', `"tree" expected ${expected} bytes, got ${data.length}`);
  const levels: Buffer[] = [];
  let offset = HEADER_SIZE;
  for (const count of levelCounts(leafCount)) {
    levels.push(data.subarray(offset, offset + count * NODE_SIZE));
    offset += count * NODE_SIZE;
  }
  return { leafCount, levels };
}

/** Byte offset of node (`level`, `index`) in the serialised form of a tree of `leafCount` leaves. */
export function nodeOffset(leafCount: number, level: number, index: number): number {
  const counts = levelCounts(leafCount);
  if (level < 0 || level >= counts.length || index < 0 || index >= counts[level]) {
    throw new DomainError('BAD_REQUEST', `node (${level}, ${index}) is outside a tree of ${leafCount} leaves`);
  }
  const before = counts.slice(0, level).reduce((sum, n) => sum + n, 0);
  return HEADER_SIZE + (before + index) * NODE_SIZE;
}

/** Byte ranges `[offset, offset + 32)` to read for the path of leaf `leafIndex`, leaf to root. */
export function proofByteRanges(leafCount: number, leafIndex: number): { offset: number; length: number }[] {
  return proofNodeLocations(leafCount, leafIndex).map((loc) => ({
    offset: nodeOffset(leafCount, loc.level, loc.index),
    length: NODE_SIZE,
  }));
}

/**
 * Path of leaf `leafIndex` reading only the needed nodes through `readNode(offset)` (32 bytes at
 * that byte offset of the serialised tree).
 * @throws DomainError BAD_REQUEST when out of range or a read returns the wrong size
 */
export function proofPathFromReader(
  leafCount: number,
  leafIndex: number,
  readNode: (offset: number) => Uint8Array,
): ProofStep[] {
  const locations = proofNodeLocations(leafCount, leafIndex);
  const nodes = locations.map((loc) => readNode(nodeOffset(leafCount, loc.level, loc.index)));
  return proofFromNodes(locations, nodes);
}
