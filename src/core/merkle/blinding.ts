/**
 * Blinded batch layout: every anchor's leaf is paired with a secret 32-byte sibling, so the tree's
 * leaves are `leaf_0, sibling_0, leaf_1, sibling_1, …`. A receipt's first proof step is then that sibling,
 * and every later step is a hash over at least one sibling the reader does not know: a public receipt tells
 * nothing of the other anchors of its batch (which may be private, and of other accounts), while
 * `targetHash` stays the anchored hash itself. It costs one more level and twice the leaves.
 *
 * The siblings are not stored: they are derived from a per-batch secret key with AES-256 in counter mode
 * (a keyed pseudo-random function of the position), so the leaf level of a batch never has to be written
 * and a receipt recomputes its one sibling. Whoever lacks the key cannot tell a sibling from random bytes,
 * so the key must never leave the store (it is as secret as the stored siblings of older batches were).
 */
import { createCipheriv } from 'node:crypto';
import { DomainError } from '../errors.js';
import { sha256 } from '../hash/sha256.js';
import { NODE_SIZE } from './tree.js';

/** Bytes of a batch's blinding key (AES-256). */
export const BLINDING_KEY_SIZE = 32;

/** Two keystreams of one key: the anchors' siblings, and the leaves standing for offsets with no anchor. */
type Stream = 'sibling' | 'hole';

/**
 * 32 bytes per offset for `count` offsets from `first`: the AES-256-CTR keystream of `key`, whose counter
 * starts at 2 × first (two 16-byte blocks per offset), in the sibling stream or, with the counter's top bit
 * set, the hole stream (the two never meet: 2^127 blocks apart).
 */
function keystream(key: Uint8Array, stream: Stream, first: number, count: number): Buffer {
  if (key.length !== BLINDING_KEY_SIZE)
    throw new DomainError('INVALID_HASH', `"key" expected ${BLINDING_KEY_SIZE} bytes, got ${key.length}`);
  if (!Number.isSafeInteger(first) || first < 0 || !Number.isSafeInteger(count) || count < 0)
    throw new DomainError('BAD_REQUEST', `offsets ${first} + ${count} are not a range`);
  const counter = Buffer.alloc(16);
  counter.writeUIntBE(first * 2, 10, 6);
  if (stream === 'hole') counter[0] = 0x80;
  return createCipheriv('aes-256-ctr', key, counter).update(Buffer.alloc(count * NODE_SIZE));
}

/**
 * The secret siblings of the anchors at offsets `first` … `first + count - 1`, 32 bytes each, packed.
 * @throws DomainError INVALID_HASH when the key is not 32 bytes
 */
export function blindingSiblings(key: Uint8Array, first: number, count: number): Buffer {
  return keystream(key, 'sibling', first, count);
}

/**
 * The secret siblings of the anchors at the given `offsets` (any order, repeats allowed), 32 bytes each,
 * packed in that order: equal to {@link blindingSiblings}(key, o, 1) for each o, made with one cipher for
 * them all. CTR's keystream at counter c is the block cipher of c itself, so the counter blocks of every
 * offset (2o and 2o + 1, sibling stream) are enciphered at once, in ECB mode.
 * @throws DomainError INVALID_HASH when the key is not 32 bytes; BAD_REQUEST when an offset is not a
 *   non-negative safe integer
 */
export function blindingSiblingsAt(key: Uint8Array, offsets: readonly number[]): Buffer {
  if (key.length !== BLINDING_KEY_SIZE)
    throw new DomainError('INVALID_HASH', `"key" expected ${BLINDING_KEY_SIZE} bytes, got ${key.length}`);
  const counters = Buffer.alloc(offsets.length * NODE_SIZE);
  offsets.forEach((o, i) => {
    if (!Number.isSafeInteger(o) || o < 0 || o * 2 + 1 >= 2 ** 48)
      throw new DomainError('BAD_REQUEST', `offset ${o} is not a position`);
    counters.writeUIntBE(o * 2, i * NODE_SIZE + 10, 6);
    counters.writeUIntBE(o * 2 + 1, i * NODE_SIZE + 26, 6);
  });
  const cipher = createCipheriv('aes-256-ecb', key, null).setAutoPadding(false);
  return Buffer.concat([cipher.update(counters), cipher.final()]);
}

/**
 * Level 1 of a blinded batch tree for `count` offsets from `first`: node o = SHA-256(leaf_o ‖ sibling_o),
 * where leaf_o is the anchor's leaf, or a secret value from the hole stream when the offset has no anchor
 * (a rolled-back insert), so positions never depend on counting rows.
 * @param packedLeaves - the anchors' leaves, 32 bytes each, in offset order
 * @param offsets - each anchor's offset (same order, ascending, inside the range), or null when every
 *   offset of the range has its anchor
 * @throws DomainError INVALID_HASH when the sizes do not match or an offset is outside the range
 */
export function blindedLevelOne(
  key: Uint8Array,
  packedLeaves: Uint8Array,
  offsets: readonly number[] | null,
  first: number,
  count: number,
): Buffer {
  const anchors = packedLeaves.length / NODE_SIZE;
  if (!Number.isInteger(anchors) || anchors !== (offsets ?? { length: count }).length || anchors > count)
    throw new DomainError('INVALID_HASH', `${anchors} leaves do not fit a range of ${count} offsets`);
  const left = offsets ? keystream(key, 'hole', first, count) : Buffer.from(packedLeaves);
  for (let i = 0; offsets && i < anchors; i++) {
    const at = offsets[i]! - first;
    if (!(at >= 0 && at < count)) throw new DomainError('INVALID_HASH', `offset ${offsets[i]} is outside the range`);
    left.set(packedLeaves.subarray(i * NODE_SIZE, (i + 1) * NODE_SIZE), at * NODE_SIZE);
  }
  const right = blindingSiblings(key, first, count);
  const pair = Buffer.allocUnsafe(2 * NODE_SIZE);
  const out = Buffer.allocUnsafe(count * NODE_SIZE);
  for (let o = 0; o < count; o++) {
    left.copy(pair, 0, o * NODE_SIZE, (o + 1) * NODE_SIZE);
    right.copy(pair, NODE_SIZE, o * NODE_SIZE, (o + 1) * NODE_SIZE);
    out.set(sha256(pair), o * NODE_SIZE);
  }
  return out;
}
