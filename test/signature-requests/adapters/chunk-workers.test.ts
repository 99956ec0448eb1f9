/** Chunk hashing on worker threads (src/adapters/merkle/chunk-workers.ts): the same subtrees as on the calling thread. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { chunkWorkers } from '../../../src/adapters/merkle/chunk-workers.js';
import { chunkSubtree } from '../../../src/core/merkle/batch-tree.js';

describe('chunk workers', () => {
  it('hash chunks on threads into the subtrees the calling thread gets, gaps included, and fail a bad chunk', async () => {
    const workers = chunkWorkers({ threads: 2, inlineBelow: 0, idleMs: 50 });
    try {
      const key = randomBytes(32);
      const jobs = [
        { key, leaves: randomBytes(300 * 32), offsets: null, first: 0, count: 300 },
        { key, leaves: randomBytes(3 * 32), offsets: [1000, 1002, 1003], first: 1000, count: 5 },
      ];
      const expected = jobs.map((j) => chunkSubtree({ ...j, leaves: Buffer.from(j.leaves) }));
      const got = await Promise.all(jobs.map((j) => workers.hash(j)));
      got.forEach((subtree, i) => assert.deepEqual(subtree, expected[i], `chunk ${i}`));
      await assert.rejects(
        workers.hash({ key, leaves: randomBytes(3 * 32), offsets: [0, 1, 9], first: 0, count: 4 }),
        /offset 9 is outside the range/,
      );
    } finally {
      await workers.close();
    }
  });
});
