/**
 * Blinded batch layout: every anchor's leaf is paired with a random 32-byte sibling, so the tree's
 * leaves are `leaf_0, nonce_0, leaf_1, nonce_1, …`. A receipt's first proof step is then that random
 * value, and every later step is a hash over at least one unknown nonce: a public receipt tells nothing of
 * the other anchors of its batch (which may be private, and of other accounts), while `targetHash` stays the
 * anchored hash itself. It costs one more level and twice the leaves.
 */
import { DomainError } from '../errors.js';
import { NODE_SIZE } from './tree.js';

/** Position in a blinded tree of the leaf of the anchor numbered `anchorIndex` (0-based) in its batch. */
export function blindedPosition(anchorIndex: number): number {
  return anchorIndex * 2;
}

/**
 * Interleaves packed anchor leaves with packed random nonces (same count, 32 bytes each).
 * @throws DomainError INVALID_HASH when the lengths are not equal multiples of 32 bytes
 */
export function interleaveNonces(packedLeaves: Uint8Array, nonces: Uint8Array): Buffer {
  if (packedLeaves.length % NODE_SIZE !== 0 || nonces.length !== packedLeaves.length) {
    throw new DomainError(
      'INVALID_HASH',
      `"nonces" expected ${packedLeaves.length} bytes for ${packedLeaves.length / NODE_SIZE} leaves, got ${nonces.length}`,
    );
  }
  const out = Buffer.allocUnsafe(packedLeaves.length * 2);
  for (let i = 0, n = packedLeaves.length / NODE_SIZE; i < n; i++) {
    out.set(packedLeaves.subarray(i * NODE_SIZE, (i + 1) * NODE_SIZE), 2 * i * NODE_SIZE);
    out.set(nonces.subarray(i * NODE_SIZE, (i + 1) * NODE_SIZE), (2 * i + 1) * NODE_SIZE);
  }
  return out;
}

/**
 * The leaf level of a blinded batch that owns a range of `span` sequence numbers: the anchor with
 * sequence offset `o` sits at position `2o`, its random sibling at `2o + 1`; an offset with no anchor (a
 * rolled-back insert) holds random bytes too. `random` (2 × span × 32 bytes) becomes the level.
 * @param packedLeaves - the anchors' leaves, 32 bytes each, in offset order
 * @param offsets - each anchor's offset in the range (same order), or null when the range has no gap
 * @throws DomainError INVALID_HASH when the sizes do not match
 */
export function blindedRangeLeaves(
  packedLeaves: Uint8Array,
  offsets: readonly number[] | null,
  span: number,
  random: Buffer,
): Buffer {
  const count = packedLeaves.length / NODE_SIZE;
  if (
    !Number.isInteger(count) ||
    random.length !== 2 * span * NODE_SIZE ||
    (offsets ?? { length: span }).length !== count
  ) {
    throw new DomainError(
      'INVALID_HASH',
      `${count} leaves do not fit a range of ${span} with ${random.length} random bytes`,
    );
  }
  for (let i = 0; i < count; i++) {
    const at = blindedPosition(offsets ? offsets[i] : i) * NODE_SIZE;
    if (at < 0 || at >= random.length)
      throw new DomainError('INVALID_HASH', `offset ${offsets?.[i]} is outside the range`);
    random.set(packedLeaves.subarray(i * NODE_SIZE, (i + 1) * NODE_SIZE), at);
  }
  return random;
}
