/**
 * The blinded batch tree built in chunks (core/merkle/batch-tree.ts, blinding.ts): the same levels as one
 * tree over the whole leaf level, across chunk boundaries; siblings derived from the key, one at a time or
 * in a run; holes; the parts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256 } from '../../../src/core/hash/index.js';
import {
  type TreePart,
  blindedLevelOne,
  blindingSiblings,
  blindingSiblingsAt,
  buildMerkleTreeFromPacked,
  CHUNK_NODES,
  chunkJoiner,
  levelsAbove,
  merkleRoot,
  PART_NODES,
} from '../../../src/core/merkle/index.js';

/** Chunk by chunk, as closing a batch does: the parts handed out, each once, joined in order. */
function chunked(key: Buffer, leaves: Buffer, span: number): { levels: Buffer; root: Buffer; parts: TreePart[] } {
  const tree = chunkJoiner(span);
  const parts: TreePart[] = [];
  const chunks = Math.ceil(span / CHUNK_NODES);
  // Last chunk first: the joiner takes chunks in any order, as the threads finish them.
  for (let c = chunks - 1; c >= 0; c--) {
    const first = c * CHUNK_NODES;
    const count = Math.min(CHUNK_NODES, span - first);
    parts.push(
      ...tree.add(
        c,
        levelsAbove(blindedLevelOne(key, leaves.subarray(first * 32, (first + count) * 32), null, first, count)),
      ),
    );
  }
  const { parts: last, root } = tree.finish();
  parts.push(...last);
  const sorted = [...parts].sort((a, b) => a.part - b.part);
  assert.deepEqual(
    sorted.map((p) => p.part),
    sorted.map((_, i) => i),
    'each part handed out once',
  );
  return { levels: Buffer.concat(sorted.map((p) => p.nodes)), root, parts: sorted };
}

/** The whole leaf level (leaf, sibling, leaf, sibling…) and the plain tree over it. */
function plainTree(key: Buffer, leaves: Buffer, span: number) {
  const siblings = blindingSiblings(key, 0, span);
  const level0 = Buffer.alloc(2 * span * 32);
  for (let o = 0; o < span; o++) {
    leaves.copy(level0, 2 * o * 32, o * 32, (o + 1) * 32);
    siblings.copy(level0, (2 * o + 1) * 32, o * 32, (o + 1) * 32);
  }
  return buildMerkleTreeFromPacked(level0);
}

describe('blinded batch tree in chunks', () => {
  for (const span of [1, 2, 3, 7, CHUNK_NODES - 1, CHUNK_NODES, CHUNK_NODES + 1, 2 * CHUNK_NODES + 3]) {
    it(`${span} anchors: the chunks join into the levels of one tree over the whole leaf level`, () => {
      const key = randomBytes(32);
      const leaves = randomBytes(span * 32);
      const tree = plainTree(key, leaves, span);
      const { levels, root } = chunked(key, leaves, span);
      assert.deepEqual(levels, Buffer.concat(tree.levels.slice(1)), 'levels 1 up, as stored');
      assert.deepEqual(root, merkleRoot(tree));
    });
  }

  it('a missing chunk is an error, not a tree', () => {
    const tree = chunkJoiner(CHUNK_NODES + 1);
    tree.add(0, levelsAbove(randomBytes(CHUNK_NODES * 32)));
    assert.throws(() => tree.finish(), /1 chunks do not cover 65537 nodes/);
  });

  it('a sibling alone is the one derived in a run; other keys and offsets give other siblings', () => {
    const key = randomBytes(32);
    const run = blindingSiblings(key, 1000, 50);
    for (const o of [1000, 1001, 1049])
      assert.deepEqual(blindingSiblings(key, o, 1), run.subarray((o - 1000) * 32, (o - 999) * 32));
    assert.notDeepEqual(blindingSiblings(randomBytes(32), 1000, 1), run.subarray(0, 32));
    const all = new Set(Array.from({ length: 50 }, (_, i) => run.subarray(i * 32, (i + 1) * 32).toString('hex')));
    assert.equal(all.size, 50);
    assert.throws(() => blindingSiblings(randomBytes(16), 0, 1), /"key" expected 32 bytes, got 16/);
    assert.throws(() => blindingSiblingsAt(randomBytes(16), [0]), /"key" expected 32 bytes, got 16/);
  });

  it('siblings at given offsets (any order, repeated, far apart) are those derived one by one', () => {
    const key = randomBytes(32);
    const offsets = [7, 0, 1_000_003, 7, 65_535, 65_536, 2 ** 40 + 1, 3];
    const at = blindingSiblingsAt(key, offsets);
    assert.equal(at.length, offsets.length * 32);
    offsets.forEach((o, i) => assert.deepEqual(at.subarray(i * 32, (i + 1) * 32), blindingSiblings(key, o, 1), `${o}`));
    assert.equal(blindingSiblingsAt(key, []).length, 0);
    assert.throws(() => blindingSiblingsAt(key, [-1]), { code: 'BAD_REQUEST' });
    assert.throws(() => blindingSiblingsAt(key, [0.5]), { code: 'BAD_REQUEST' });
  });

  it('a hole (offset without an anchor) takes a secret leaf, neither zeros nor the sibling', () => {
    const key = randomBytes(32);
    const leaves = randomBytes(3 * 32);
    const level1 = blindedLevelOne(key, leaves, [10, 11, 13], 10, 4);
    const sibling = (o: number) => blindingSiblings(key, o, 1);
    assert.deepEqual(level1.subarray(0, 32), sha256(Buffer.concat([leaves.subarray(0, 32), sibling(10)])));
    assert.deepEqual(level1.subarray(96, 128), sha256(Buffer.concat([leaves.subarray(64, 96), sibling(13)])));
    const hole = level1.subarray(64, 96);
    assert.notDeepEqual(hole, sha256(Buffer.concat([Buffer.alloc(32), sibling(12)])));
    assert.notDeepEqual(hole, sha256(Buffer.concat([sibling(12), sibling(12)])));
    assert.throws(() => blindedLevelOne(key, leaves, [10, 11, 14], 10, 4), /offset 14 is outside the range/);
  });

  it('the stored form is cut into parts of PART_NODES nodes, the last one shorter', () => {
    const span = 2 * CHUNK_NODES + 3;
    const { levels, parts } = chunked(randomBytes(32), randomBytes(span * 32), span);
    assert.ok(parts.length > 2);
    for (const p of parts.slice(0, -1)) assert.equal(p.nodes.length, PART_NODES * 32);
    assert.equal(parts.at(-1)!.nodes.length, levels.length - (parts.length - 1) * PART_NODES * 32);
  });
});
