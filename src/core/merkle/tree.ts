/**
 * Merkle tree with the Chainpoint v2 node rule: parent = SHA-256(left bytes ‖ right bytes) over the
 * 32-byte values; an odd last node moves up unchanged. The tree is kept as its levels, one contiguous
 * Buffer per level (level 0 = leaves, last level = the root), so a batch of a million leaves costs
 * about 64 MB in a few large allocations rather than two million small Buffers.
 */
import { DomainError } from '../errors.js';
import { sha256 } from '../hash/sha256.js';

/** Size of a node in bytes. */
export const NODE_SIZE = 32;

/** A Merkle tree as its levels. */
export interface MerkleTree {
  readonly leafCount: number;
  /** `levels[0]` holds the leaves, `levels[levels.length - 1]` the root; 32 bytes per node. */
  readonly levels: readonly Buffer[];
}

/**
 * Number of nodes on each level, from the leaves up to the root.
 * @throws DomainError BAD_REQUEST when `leafCount` is not a positive integer
 */
export function levelCounts(leafCount: number): number[] {
  if (!Number.isSafeInteger(leafCount) || leafCount < 1) {
    throw new DomainError('BAD_REQUEST', `"leafCount" expected a positive integer, got ${leafCount}`);
  }
  const counts = [leafCount];
  for (let n = leafCount; n > 1;) {
    n = Math.ceil(n / 2);
    counts.push(n);
  }
  return counts;
}

/**
 * Build a tree over 32-byte leaves (copied into one contiguous Buffer).
 * @param leaves - the leaf values, in batch order
 * @throws DomainError INVALID_HASH when a leaf is not 32 bytes; BAD_REQUEST when there is no leaf
 */
export function buildMerkleTree(leaves: readonly Uint8Array[]): MerkleTree {
  const packed = Buffer.allocUnsafe(leaves.length * NODE_SIZE);
  leaves.forEach((leaf, i) => {
    if (leaf.length !== NODE_SIZE) {
      throw new DomainError('INVALID_HASH', `"leaves[${i}]" expected ${NODE_SIZE} bytes, got ${leaf.length}`);
    }
    packed.set(leaf, i * NODE_SIZE);
  });
  return buildMerkleTreeFromPacked(packed);
}

/**
 * Build a tree over leaves already packed back to back (32 bytes each). The Buffer is kept as level 0.
 * @throws DomainError INVALID_HASH when the length is not a multiple of 32; BAD_REQUEST when empty
 */
export function buildMerkleTreeFromPacked(packedLeaves: Buffer): MerkleTree {
  if (packedLeaves.length % NODE_SIZE !== 0) {
    throw new DomainError(
      'INVALID_HASH',
      `"leaves" expected a multiple of ${NODE_SIZE} bytes, got ${packedLeaves.length}`,
    );
  }
  const counts = levelCounts(packedLeaves.length / NODE_SIZE);
  const levels = [packedLeaves];
  for (let k = 1; k < counts.length; k++) levels.push(parentLevel(levels[k - 1], counts[k - 1]));
  return { leafCount: counts[0], levels };
}

function parentLevel(level: Buffer, count: number): Buffer {
  const pairs = Math.floor(count / 2);
  const parent = Buffer.allocUnsafe(Math.ceil(count / 2) * NODE_SIZE);
  for (let i = 0; i < pairs; i++) {
    // left ‖ right are adjacent in the level: hash the 64-byte window in place.
    parent.set(sha256(level.subarray(i * 2 * NODE_SIZE, (i + 1) * 2 * NODE_SIZE)), i * NODE_SIZE);
  }
  if (count % 2 === 1) level.copy(parent, pairs * NODE_SIZE, (count - 1) * NODE_SIZE, count * NODE_SIZE);
  return parent;
}

/** The 32-byte node at (`level`, `index`), as a view into the level (no copy). */
export function nodeAt(tree: MerkleTree, level: number, index: number): Buffer {
  const buf = tree.levels[level];
  if (buf === undefined || !Number.isInteger(index) || index < 0 || (index + 1) * NODE_SIZE > buf.length) {
    throw new DomainError('BAD_REQUEST', `node (${level}, ${index}) is outside the tree`);
  }
  return buf.subarray(index * NODE_SIZE, (index + 1) * NODE_SIZE);
}

/** The root of the tree (a view, 32 bytes). */
export function merkleRoot(tree: MerkleTree): Buffer {
  return nodeAt(tree, tree.levels.length - 1, 0);
}
