// tier: slow (measured: 13.4 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Static receipts (STATIC_RECEIPTS_URL, RECEIPT_REDIRECT) against a real S3 HTTP server (s3rver): the job's
 * use case writes each confirmed receipt once per transaction, byte for byte what the route serves, under a
 * keyed name that is neither the anchor id nor the same for another transaction; the route redirects to it
 * only when enabled and only once written for the batch's present transaction (cacheable once settled, asked
 * again each time before); a reorg that moves a batch into another transaction stops the redirect until the
 * receipts are written again; and Woleet's own client library (its Node build) follows the redirect.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../../src/adapters/objects/s3-client.js';
import { s3StaticReceipts } from '../../../src/adapters/objects/s3-static-receipts.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { publishStaticReceipts } from '../../../src/app/anchoring/publish-static-receipts.js';
import type { StaticReceiptDeps } from '../../../src/app/anchoring/static-receipts.port.js';
import { staticReceiptName } from '../../../src/core/chainpoint/static-receipt-name.js';
import { confirmBatchAt, insertDataAnchors, randomHash, randomLeaves } from '../../support/anchors.js';
import { recordingJobs, TEST_SECRET_KEY, testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const woleet = createRequire(import.meta.url)('@woleet/woleet-weblibs') as {
  config: { setDefaultWoleetApiUrl(url: string): void };
  receipt: { get(id: string): Promise<{ targetHash: string }> };
};

for (const kind of await storeKinds()) {
  describe(`static settled receipts on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let server: TestS3;
    let s3: S3Client;
    let statics: StaticReceiptDeps;
    let redirecting: FastifyInstance;
    let plain: FastifyInstance;
    let settledIds: string[] = [];
    let watchedIds: string[] = [];
    let watchedBatch = '';
    /** The transaction of each anchor's batch, by anchor id. */
    const txOf = new Map<string, string>();
    let base = '';
    const served = new Map<string, string>();

    /** Closes a batch over the anchors inserted, sends it and confirms it at `height`. */
    async function batchAt(height: number): Promise<string> {
      const jobs = recordingJobs();
      const id = (await closeBatch(
        testDeps(
          s.withJobs(() => jobs),
          { jobs },
        ),
        { maxSize: 1000 },
      ))!.batchId;
      await s.store.batches.markSent(id, randomHash(), Date.now());
      await confirmBatchAt(s.store, id, height);
      return id;
    }

    /** Records each anchor's transaction, as its batch now has it. */
    async function noteTx(ids: string[], batchId: string): Promise<void> {
      const txId = (await s.store.batches.findById(batchId))!.txId!;
      for (const id of ids) txOf.set(id, txId);
    }

    before(async () => {
      s = await kind.open();
      server = await startS3('proofseal-receipts', 'svc');
      const loc = parseObjectStoreUrl(server.url);
      s3 = s3Client(loc);
      base = `${loc.endpoint}/${loc.bucket}/svc/receipts/`;
      statics = { objects: s3StaticReceipts(s3, loc.prefix), publicBaseUrl: base };
      const account = await createAccount(testDeps(s.store), {
        email: 'static@example.com',
        password: 'correct horse battery',
      });
      settledIds = await insertDataAnchors(s.db, account.id, randomLeaves(21), 'settled');
      await noteTx(settledIds, await batchAt(1000));
      watchedIds = await insertDataAnchors(s.db, account.id, randomLeaves(5), 'watched');
      watchedBatch = await batchAt(1090);
      await noteTx(watchedIds, watchedBatch);
      await s.store.batches.settleUpTo(1000);
      const env = {
        RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
        OBJECT_STORE_URL: server.url,
        STATIC_RECEIPTS_URL: base,
      };
      redirecting = await testApp(s.store, {
        config: testConfig({ ...env, RECEIPT_REDIRECT: 'true' }),
        deps: { staticReceipts: statics },
      });
      plain = await testApp(s.store, { config: testConfig(env), deps: { staticReceipts: statics } });
    });
    after(async () => {
      await redirecting?.close();
      await plain?.close();
      await server?.close();
      await s?.destroy();
    });

    const get = (app: FastifyInstance, id: string) => app.inject({ method: 'GET', url: `/v1/receipt/${id}` });

    it('serves the receipts as before while none is written', async () => {
      for (const id of [...settledIds, ...watchedIds]) {
        const r = await get(redirecting, id);
        assert.equal(r.statusCode, 200);
        served.set(id, r.body);
      }
    });

    const nameOf = (id: string) => staticReceiptName(TEST_SECRET_KEY, id, txOf.get(id)!);
    const objectText = async (name: string) => {
      const bytes = await s3.get(`svc/receipts/${name}.json`);
      return bytes === null ? null : Buffer.from(bytes).toString('utf8');
    };
    const deps = () => ({ ...testDeps(s.store), staticReceipts: statics });

    it('writes each confirmed receipt once, the very bytes the route serves, under a keyed name', async () => {
      const run = await publishStaticReceipts(deps(), { budgetMs: 60_000 });
      assert.deepEqual(run, { written: settledIds.length + watchedIds.length, more: false });
      for (const id of [...settledIds, ...watchedIds]) {
        const name = nameOf(id);
        assert.match(name, /^[0-9a-f]{64}$/);
        assert.ok(!name.includes(id.replaceAll('-', '')));
        assert.notEqual(
          name,
          staticReceiptName(TEST_SECRET_KEY, id, randomHash()),
          'another transaction, another name',
        );
        assert.equal(await objectText(name), served.get(id));
      }
      assert.deepEqual(await publishStaticReceipts(deps(), { budgetMs: 60_000 }), { written: 0, more: false });
    });

    it('redirects a written receipt when enabled (cacheable once settled); every receipt as before when not', async () => {
      for (const id of [...settledIds, ...watchedIds]) {
        const r = await get(redirecting, id);
        assert.equal(r.statusCode, 302);
        assert.equal(r.headers.location, `${base}${nameOf(id)}.json`);
        const settled = settledIds.includes(id);
        assert.equal(r.headers['cache-control'], settled ? 'public, max-age=86400' : 'no-cache');
        const p = await get(plain, id);
        assert.equal(p.statusCode, 200);
        assert.equal(p.body, served.get(id));
      }
      assert.equal((await get(redirecting, '00000000-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await get(redirecting, 'not-a-uuid')).statusCode, (await get(plain, 'not-a-uuid')).statusCode);
    });

    it('a reorg into another transaction stops the redirect until the receipts are written for it', async () => {
      const oldNames = watchedIds.map(nameOf);
      await s.store.batches.clearConfirmation(watchedBatch, Date.now());
      for (const id of watchedIds) assert.notEqual((await get(redirecting, id)).statusCode, 302, 'SENT again');
      const newTx = randomHash();
      await confirmBatchAt(s.store, watchedBatch, 1091, newTx);
      for (const id of watchedIds) {
        const r = await get(redirecting, id);
        assert.equal(r.statusCode, 200, 'not written for the new transaction yet');
        assert.equal(JSON.parse(r.body).anchors[0].sourceId, newTx);
        served.set(id, r.body);
        txOf.set(id, newTx);
      }
      const run = await publishStaticReceipts(deps(), { budgetMs: 60_000 });
      assert.deepEqual(run, { written: watchedIds.length, more: false });
      for (const [k, id] of watchedIds.entries()) {
        assert.notEqual(nameOf(id), oldNames[k]);
        assert.equal(await objectText(nameOf(id)), served.get(id));
        const r = await get(redirecting, id);
        assert.equal(r.statusCode, 302);
        assert.equal(r.headers.location, `${base}${nameOf(id)}.json`);
      }
      for (const id of settledIds)
        assert.equal((await get(redirecting, id)).statusCode, 302, 'other batches untouched');
    });

    it("Woleet's client library follows the redirect to the static receipt", async () => {
      await redirecting.listen({ port: 0, host: '127.0.0.1' });
      const { port } = redirecting.server.address() as AddressInfo;
      woleet.config.setDefaultWoleetApiUrl(`http://127.0.0.1:${port}/v1`);
      const id = settledIds[3]!;
      const receipt = await woleet.receipt.get(id);
      assert.deepEqual(receipt, JSON.parse(served.get(id)!));
    });
  });
}
