/** `/ready` shows a batching stall: the age of the oldest waiting anchor and the last batch closed, on both stores. */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { recordingJobs, testApp, testClock, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`/ready batching figures on ${kind.name}`, { skip: kind.skip }, () => {
    it('reports the oldest waiting anchor until its batch is sent, and when the last batch closed', async () => {
      const s = await kind.open();
      const clock = testClock(1_800_000_000_000);
      const store = s.withJobs(recordingJobs);
      const deps = testDeps(store, { clock });
      const app = await testApp(store, { deps: { clock } });
      const ready = async () => {
        const res = await app.inject('/ready');
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json<{ oldestWaitingAnchorAgeSeconds: number | null; lastBatchClosedAt: string | null }>();
        return [body.oldestWaitingAnchorAgeSeconds, body.lastBatchClosedAt];
      };
      try {
        assert.deepEqual(await ready(), [null, null], 'nothing waits, nothing closed yet');
        const account = await createAccount(deps, { email: 'ready@example.com', password: 'correct horse battery' });
        for (const agoMs of [125_500, 10_000]) {
          const leaf = randomBytes(32);
          await s.db.query(
            `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
             VALUES ($1, $2, 'ready', 'data', $3, $4, $5, $5)`,
            [randomUUID(), account.id, leaf.toString('hex'), leaf, clock.now() - agoMs],
          );
        }
        assert.deepEqual(await ready(), [125, null], 'the oldest unbatched anchor, in whole seconds');
        const closed = (await closeBatch(deps, { maxSize: 10 }))!;
        const closedAt = new Date(clock.now()).toISOString();
        clock.advance(60_000);
        assert.deepEqual(await ready(), [185, closedAt], 'a closed batch not yet sent still waits');
        await store.batches.markSent(closed.batchId, randomBytes(32).toString('hex'), clock.now());
        assert.deepEqual(await ready(), [null, closedAt], 'sent: nothing waits any more');
      } finally {
        await app.close();
        await s.destroy();
      }
    });
  });
}
