import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import MerkleTools, { type Proof } from 'merkle-tools';
import { sha256, sha256Pair } from '../../../src/core/hash/index.js';
import {
  buildMerkleTree,
  buildMerkleTreeFromPacked,
  deserializeTree,
  levelCounts,
  merkleRoot,
  nodeOffset,
  proofByteRanges,
  proofNodeLocations,
  proofPath,
  proofPathFromReader,
  rootFromPath,
  serializedSize,
  serializeTree,
} from '../../../src/core/merkle/index.js';

function leavesOf(count: number, seed = 0): Buffer[] {
  return Array.from({ length: count }, (_, i) => sha256(Buffer.from(`leaf ${seed}:${i}`)));
}

function referenceTree(leaves: Buffer[]): MerkleTools {
  const mt = new MerkleTools({ hashType: 'sha256' });
  mt.addLeaves(leaves.map((l) => l.toString('hex')));
  mt.makeTree();
  return mt;
}

const leafCounts = fc.oneof(
  fc.constantFrom(1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 127, 128, 129),
  fc.integer({ min: 1, max: 300 }),
);

describe('merkle tree vs merkle-tools (Chainpoint v2 rule)', () => {
  it('builds the same root and the same proof for every leaf', () => {
    fc.assert(
      fc.property(leafCounts, fc.nat(), (count, seed) => {
        const leaves = leavesOf(count, seed);
        const tree = buildMerkleTree(leaves);
        const mt = referenceTree(leaves);
        assert.equal(merkleRoot(tree).toString('hex'), mt.getMerkleRoot()?.toString('hex'));
        for (let i = 0; i < count; i++) {
          const path = proofPath(tree, i);
          assert.deepEqual(path, mt.getProof(i));
          assert.deepEqual(rootFromPath(leaves[i], path), merkleRoot(tree));
          assert.equal(mt.validateProof(path as unknown as Proof<string>, leaves[i], merkleRoot(tree)), true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a changed leaf or proof step no longer reaches the root', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), fc.nat(), (count, pick) => {
        const leaves = leavesOf(count);
        const tree = buildMerkleTree(leaves);
        const i = pick % count;
        const path = proofPath(tree, i);
        const wrongLeaf = Buffer.from(leaves[i]);
        wrongLeaf[0] ^= 1;
        assert.notDeepEqual(rootFromPath(wrongLeaf, path), merkleRoot(tree));
        const flipped = path.map((s) => ('left' in s ? { right: s.left } : { left: s.right }));
        if (path.some((s) => ('left' in s ? s.left : s.right) !== leaves[i].toString('hex'))) {
          assert.notDeepEqual(rootFromPath(leaves[i], flipped), merkleRoot(tree));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('merkle tree shape', () => {
  it('a single leaf is its own root with an empty path', () => {
    const [leaf] = leavesOf(1);
    const tree = buildMerkleTree([leaf]);
    assert.deepEqual(merkleRoot(tree), leaf);
    assert.deepEqual(proofPath(tree, 0), []);
  });
  it('three leaves: the odd last node moves up unchanged', () => {
    const [a, b, c] = leavesOf(3);
    const tree = buildMerkleTree([a, b, c]);
    assert.deepEqual(merkleRoot(tree), sha256Pair(sha256Pair(a, b), c));
    assert.deepEqual(proofPath(tree, 2), [{ left: sha256Pair(a, b).toString('hex') }]);
    assert.deepEqual(levelCounts(3), [3, 2, 1]);
  });
  it('refuses an empty batch, a leaf that is not 32 bytes and an index out of range', () => {
    assert.throws(() => buildMerkleTree([]), { code: 'BAD_REQUEST' });
    assert.throws(() => buildMerkleTree([Buffer.alloc(31)]), {
      code: 'INVALID_HASH',
      message: '"leaves[0]" expected 32 bytes, got 31',
    });
    assert.throws(() => buildMerkleTreeFromPacked(Buffer.alloc(33)), { code: 'INVALID_HASH' });
    assert.throws(() => proofNodeLocations(4, 4), { code: 'BAD_REQUEST' });
    assert.throws(() => rootFromPath(Buffer.alloc(32), [{ left: 'AB' }]), { code: 'INVALID_HASH' });
  });
});

describe('serialised levels', () => {
  it('round-trips and has the computed size', () => {
    fc.assert(
      fc.property(leafCounts, (count) => {
        const tree = buildMerkleTree(leavesOf(count));
        const data = serializeTree(tree);
        assert.equal(data.length, serializedSize(count));
        const back = deserializeTree(data);
        assert.equal(back.leafCount, count);
        assert.deepEqual(
          back.levels.map((l) => l.toString('hex')),
          tree.levels.map((l) => l.toString('hex')),
        );
      }),
      { numRuns: 40 },
    );
  });
  it('derives each path from only the needed nodes, matching merkle-tools', () => {
    fc.assert(
      fc.property(leafCounts, fc.nat(), (count, pick) => {
        const leaves = leavesOf(count, pick);
        const data = serializeTree(buildMerkleTree(leaves));
        const i = pick % count;
        const reads: number[] = [];
        const path = proofPathFromReader(count, i, (offset) => {
          reads.push(offset);
          return data.subarray(offset, offset + 32);
        });
        assert.deepEqual(path, referenceTree(leaves).getProof(i));
        assert.ok(reads.length <= Math.ceil(Math.log2(count)));
        assert.deepEqual(
          reads,
          proofByteRanges(count, i).map((r) => r.offset),
        );
      }),
      { numRuns: 60 },
    );
  });
  it('rejects a bad version, a bad length and an offset outside the tree', () => {
    const data = serializeTree(buildMerkleTree(leavesOf(5)));
    assert.throws(() => deserializeTree(data.subarray(0, data.length - 1)), {
      code: 'BAD_REQUEST',
      message: /expected \d+ bytes/,
    });
    const badVersion = Buffer.from(data);
    badVersion[0] = 9;
    assert.throws(() => deserializeTree(badVersion), { message: '"tree" expected format version 1, got 9' });
    assert.throws(() => nodeOffset(5, 1, 3), { code: 'BAD_REQUEST' });
    assert.equal(nodeOffset(5, 3, 0), data.length - 32);
  });
  it('packs large random batches without error (10,000 leaves)', () => {
    const packed = randomBytes(32 * 10_000);
    const tree = buildMerkleTreeFromPacked(packed);
    const mt = new MerkleTools({ hashType: 'sha256' });
    for (let i = 0; i < 10_000; i++) mt.addLeaf(packed.subarray(i * 32, i * 32 + 32));
    mt.makeTree();
    assert.deepEqual(merkleRoot(tree), mt.getMerkleRoot());
  });
});
