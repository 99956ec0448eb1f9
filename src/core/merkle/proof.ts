/**
 * Chainpoint v2 proof paths: `[{left: hex} | {right: hex}]`, ordered from the leaf to the root.
 * A step `{left: s}` means parent = SHA-256(s ‖ node); `{right: s}` means SHA-256(node ‖ s).
 * Paths are derived on demand from the stored levels; only log2(n) nodes are needed per path.
 */
import { DomainError } from '../errors.js';
import { bytesToHex, hexToBytes } from '../hash/hex.js';
import { sha256, sha256Pair } from '../hash/sha256.js';
import { levelCounts, nodeAt, NODE_SIZE, type MerkleTree } from './tree.js';

/** One step of a Chainpoint v2 proof. */
export type ProofStep = { left: string } | { right: string };

/** Where the sibling of a proof step sits in the tree. */
export interface ProofNodeLocation {
  readonly level: number;
  readonly index: number;
  /** Which side the sibling is on, i.e. the key of the proof step. */
  readonly side: 'left' | 'right';
}

/**
 * Locations of the siblings forming the path of leaf `leafIndex`, leaf to root. An odd last node
 * has no sibling on its level and contributes no step.
 * @throws DomainError BAD_REQUEST when `leafIndex` is out of range
 */
export function proofNodeLocations(leafCount: number, leafIndex: number): ProofNodeLocation[] {
  const counts = levelCounts(leafCount);
  if (!Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= leafCount) {
    throw new DomainError('BAD_REQUEST', `"leafIndex" expected 0..${leafCount - 1}, got ${leafIndex}`);
  }
  const locations: ProofNodeLocation[] = [];
  let index = leafIndex;
  for (let level = 0; level < counts.length - 1; level++, index = Math.floor(index / 2)) {
    const sibling = index ^ 1;
    if (sibling >= counts[level]) continue;
    locations.push({ level, index: sibling, side: index % 2 === 0 ? 'right' : 'left' });
  }
  return locations;
}

/**
 * Assemble a proof from sibling locations and the nodes read at those locations (same order).
 * @throws DomainError BAD_REQUEST when the counts differ or a node is not 32 bytes
 */
export function proofFromNodes(locations: readonly ProofNodeLocation[], nodes: readonly Uint8Array[]): ProofStep[] {
  if (locations.length !== nodes.length) {
    throw new DomainError('BAD_REQUEST', `"nodes" expected ${locations.length} nodes, got ${nodes.length}`);
  }
  return locations.map((loc, i) => {
    const node = nodes[i];
    if (node.length !== NODE_SIZE)
      throw new DomainError('BAD_REQUEST', `"nodes[${i}]" expected 32 bytes, got ${node.length}`);
    const hex = bytesToHex(node);
    return loc.side === 'left' ? { left: hex } : { right: hex };
  });
}

/** Proof path of leaf `leafIndex` in an in-memory tree. @throws DomainError BAD_REQUEST when out of range */
export function proofPath(tree: MerkleTree, leafIndex: number): ProofStep[] {
  const locations = proofNodeLocations(tree.leafCount, leafIndex);
  return proofFromNodes(
    locations,
    locations.map((loc) => nodeAt(tree, loc.level, loc.index)),
  );
}

/**
 * Root reached from `leaf` by applying `path`.
 * @param leaf - the target hash, 32 bytes
 * @param path - Chainpoint v2 proof steps
 * @throws DomainError INVALID_HASH when a step's hash is not 64 lowercase hex chars
 */
export function rootFromPath(leaf: Uint8Array, path: readonly ProofStep[]): Buffer {
  let node: Buffer = Buffer.from(leaf);
  path.forEach((step, i) => {
    if ('left' in step) node = sha256Pair(hexToBytes(step.left, `proof[${i}].left`, 32), node);
    else node = sha256Pair(node, hexToBytes(step.right, `proof[${i}].right`, 32));
  });
  return node;
}

/**
 * Root reached from `leaf` through the sibling `nodes` at `locations` (as {@link proofFromNodes} pairs
 * them), on the bytes themselves: no hex, one one-shot SHA-256 of 64 bytes a step. Equal to
 * {@link rootFromPath} of the proof those nodes make.
 * @throws DomainError BAD_REQUEST when the counts differ or a node is not 32 bytes
 */
export function rootFromNodes(
  leaf: Uint8Array,
  locations: readonly ProofNodeLocation[],
  nodes: readonly Uint8Array[],
): Buffer {
  if (locations.length !== nodes.length) {
    throw new DomainError('BAD_REQUEST', `"nodes" expected ${locations.length} nodes, got ${nodes.length}`);
  }
  const pair = Buffer.allocUnsafe(2 * NODE_SIZE);
  let node: Buffer = Buffer.from(leaf);
  for (let i = 0; i < nodes.length; i++) {
    const sibling = nodes[i]!;
    if (sibling.length !== NODE_SIZE)
      throw new DomainError('BAD_REQUEST', `"nodes[${i}]" expected 32 bytes, got ${sibling.length}`);
    const left = locations[i]!.side === 'left';
    pair.set(left ? sibling : node, 0);
    pair.set(left ? node : sibling, NODE_SIZE);
    node = sha256(pair);
  }
  return node;
}
