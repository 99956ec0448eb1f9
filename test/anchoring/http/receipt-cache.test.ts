// tier: slow (measured: 12.8 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Receipts over HTTP once a batch owns a seq range: ETag and Cache-Control, 304 on a matching
 * If-None-Match, and never a stale receipt after a fee bump (new txid) or a reorg, whether from the
 * in-memory cache or through an ETag — with two API instances on one store, as two processes would be.
 * Only a settled receipt (confirmed below the reorg watch) is kept in memory and marked immutable.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { pathReachesRoot } from '../../../src/core/chainpoint/receipt.js';
import { confirmBatchAt, insertDataAnchors, randomHash, randomLeaves } from '../../support/anchors.js';
import { recordingJobs, testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

interface Receipt {
  targetHash: string;
  merkleRoot: string;
  proof: ({ left: string } | { right: string })[];
  anchors: { sourceId: string }[];
}

for (const kind of kinds) {
  describe(`receipt caching on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let apps: FastifyInstance[] = [];
    const ids: string[] = [];
    let batchId = '';
    let treeKey = '';

    before(async () => {
      s = await kind.open();
      const deps = testDeps(s.store);
      const account = await createAccount(deps, { email: 'cache@example.com', password: 'correct horse battery' });
      ids.push(...(await insertDataAnchors(s.db, account.id, randomLeaves(37), 'cache')));
      const jobs = recordingJobs();
      const closeDeps = testDeps(
        s.withJobs(() => jobs),
        { jobs },
      );
      batchId = (await closeBatch(closeDeps, { maxSize: 1000 }))!.batchId;
      const [key] = await s.db.query<{ k: Uint8Array }>('SELECT tree_key AS k FROM batch WHERE id = $1', [batchId]);
      treeKey = Buffer.from(key!.k).toString('hex');
      const config = testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' });
      apps = [await testApp(s.store, { config }), await testApp(s.store, { config })];
    });
    after(async () => {
      for (const app of apps) await app.close();
      await s?.destroy();
    });

    const get = (app: FastifyInstance, id: string, etag?: string) =>
      app.inject({ method: 'GET', url: `/v1/receipt/${id}`, headers: etag ? { 'if-none-match': etag } : {} });

    it('a WAIT anchor gets 202 and no ETag', async () => {
      const r = await get(apps[0]!, ids[0]!);
      assert.equal(r.statusCode, 202);
      assert.equal(r.headers.etag, undefined);
    });

    it('a SENT receipt has an ETag, must be revalidated, and a matching If-None-Match gets 304', async () => {
      assert.ok(await s.store.batches.markSent(batchId, randomHash(), Date.now()));
      for (const id of ids) {
        const r = await get(apps[0]!, id);
        assert.equal(r.statusCode, 200);
        const receipt = r.json<Receipt>();
        assert.ok(pathReachesRoot(receipt.targetHash, receipt.proof, receipt.merkleRoot), 'the proof reaches the root');
        assert.equal(r.headers['cache-control'], 'no-cache');
        assert.match(String(r.headers.etag), /^"[\w-]{22}"$/);
        assert.ok(!r.body.includes(treeKey), "the batch's blinding key is never served");
        const again = await get(apps[1]!, id, String(r.headers.etag));
        assert.equal(again.statusCode, 304, 'the other instance agrees on the ETag');
        assert.equal(again.body, '');
      }
    });

    it('a fee bump (new txid) never serves the old receipt: not from memory, not through the ETag', async () => {
      const before = await get(apps[0]!, ids[1]!);
      const bumped = randomHash();
      await s.store.batches.setTxId(batchId, bumped, Date.now());
      for (const app of apps) {
        const r = await get(app, ids[1]!, String(before.headers.etag));
        assert.equal(r.statusCode, 200, 'the old ETag no longer matches');
        assert.equal(r.json<Receipt>().anchors[0]!.sourceId, bumped);
        assert.notEqual(r.headers.etag, before.headers.etag);
      }
    });

    it('a reorg that takes the batch back to WAIT (its transactions gone) serves 202, not the old receipt', async () => {
      const before = await get(apps[0]!, ids[2]!);
      await confirm(1000);
      await s.store.batches.clearConfirmation(batchId, Date.now());
      await s.store.batches.resetToWait(batchId, Date.now());
      for (const app of apps) assert.equal((await get(app, ids[2]!, String(before.headers.etag))).statusCode, 202);
      assert.ok(await s.store.batches.markSent(batchId, randomHash(), Date.now()));
    });

    it('a batch confirmed but still watched is not settled: still revalidated', async () => {
      await confirm(2000);
      await s.store.batches.settleUpTo(1999);
      assert.equal((await get(apps[0]!, ids[3]!)).headers['cache-control'], 'no-cache');
    });

    it('once settled the receipt is immutable and served from memory', async () => {
      await s.store.batches.settleUpTo(2000);
      const first = await get(apps[0]!, ids[4]!);
      assert.equal(first.headers['cache-control'], 'public, max-age=31536000, immutable');
      // Rewrite the settled row underneath (the service never does): the kept receipt is what is served.
      await s.db.query('UPDATE batch SET tx_id = $2 WHERE id = $1', [batchId, randomHash()]);
      const second = await get(apps[0]!, ids[4]!);
      assert.equal(second.body, first.body, 'served from memory');
      assert.equal((await get(apps[0]!, ids[4]!, String(first.headers.etag))).statusCode, 304);
    });

    /** The batch's transaction confirmed at `height` with 6 confirmations (CONFIRMED). */
    const confirm = (height: number) => confirmBatchAt(s.store, batchId, height);
  });
}
