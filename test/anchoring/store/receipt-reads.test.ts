// tier: slow (over 10 s of tests)
/**
 * Many anchors' receipt data at once (findProofDataMany, src/adapters/store/anchor.repository.ts) is the
 * same as each anchor's own read (findProofData), on both stores, whatever the resident levels keep: all of a
 * batch, only its upper levels, or nothing; for batches over several stored parts, batches stored before
 * migration 022, anchors still waiting and unknown ids.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { ResidentLevels } from '../../../src/core/cache/resident-levels.js';
import { buildMerkleTreeFromPacked, merkleRoot, serializeTree } from '../../../src/core/merkle/index.js';
import { insertDataAnchors, randomHash, randomLeaves } from '../../support/anchors.js';
import { recordingJobs, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`receipt reads of many anchors on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let ids: string[] = [];
    before(async () => {
      s = await kind.open();
      const account = await createAccount(testDeps(s.store), { email: 'many@example.com', password: 'correct horse' });
      // 40,000 anchors: 80,000 stored nodes, over two parts of 65,536; then 1,000 in a second batch.
      const big = await insertDataAnchors(s.db, account.id, randomLeaves(40_000));
      const deps = testDeps(s.withJobs(recordingJobs));
      const first = await closeBatch(deps, { maxSize: 40_000 });
      const small = await insertDataAnchors(s.db, account.id, randomLeaves(1_000));
      const second = await closeBatch(deps, { maxSize: 1_000 });
      for (const b of [first!, second!]) await s.store.batches.markSent(b.batchId, randomHash(), 0);
      const legacy = await legacyBatch(s, account.id);
      const waiting = await insertDataAnchors(s.db, account.id, randomLeaves(3));
      const sample = (all: string[], n: number) =>
        Array.from({ length: n }, () => all[Math.floor(Math.random() * all.length)]!);
      ids = [
        ...new Set([big[0]!, big[big.length - 1]!, ...sample(big, 300), ...sample(small, 50), ...legacy, ...waiting]),
      ];
    });
    after(() => s?.destroy());

    for (const [label, budget] of [
      ['every level resident', 32 * 1024 * 1024],
      ['only the upper levels resident (64 KB)', 64 * 1024],
      ['nothing resident', 0],
    ] as const) {
      it(`equals each anchor's own read: ${label}`, async () => {
        const levels = new ResidentLevels(budget);
        const unknown = randomUUID();
        for (const chunk of [ids.slice(0, 150), ids.slice(150), ids]) {
          const many = await s.store.anchors.findProofDataMany([...chunk, unknown, 'not-a-uuid'], levels);
          assert.equal(many.size, chunk.length, 'every known anchor, no unknown one');
          for (const id of chunk) assert.deepEqual(many.get(id), await s.store.anchors.findProofData(id), id);
        }
        assert.ok(levels.bytes <= budget, `${levels.bytes} bytes resident within ${budget}`);
        if (budget > 0) assert.ok(levels.bytes > 0, 'some levels were kept');
      });
    }
  });
}

/** Five anchors in a batch stored as before migration 022 (whole serialised tree, no key), SENT; their ids. */
async function legacyBatch(s: TestStore, accountId: string): Promise<string[]> {
  const leaves = randomLeaves(5);
  const ids = await insertDataAnchors(s.db, accountId, leaves);
  const [range] = await s.db.query<{ first: number; last: number }>(
    'SELECT min(seq)::int AS first, max(seq)::int AS last FROM anchor WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const tree = buildMerkleTreeFromPacked(Buffer.concat(leaves.flatMap((leaf) => [leaf, randomBytes(32)])));
  await s.db.query(
    `INSERT INTO batch (id, status, root, leaf_count, tree, first_seq, last_seq, tx_id, created, last_modified)
     VALUES ($1, 'SENT', $2, $3, $4, $5, $6, $7, 0, 0)`,
    [randomUUID(), merkleRoot(tree), tree.leafCount, serializeTree(tree), range!.first, range!.last, randomHash()],
  );
  return ids;
}
