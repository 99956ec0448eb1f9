/**
 * Static settled receipts (STATIC_RECEIPTS_URL, RECEIPT_REDIRECT) against a real S3 HTTP server (s3rver):
 * the job's use case writes each settled receipt once, byte for byte what the route serves, under a keyed
 * name that is not the anchor id; the route redirects to it only when enabled and only once written; and
 * Woleet's own client library (its Node build) follows the redirect to the same receipt.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../src/adapters/objects/s3-client.js';
import { s3StaticReceipts } from '../../src/adapters/objects/s3-static-receipts.js';
import { createAccount } from '../../src/app/accounts/create-account.js';
import { closeBatch } from '../../src/app/anchoring/close-batch.js';
import { publishStaticReceipts } from '../../src/app/anchoring/publish-static-receipts.js';
import type { StaticReceiptDeps } from '../../src/app/anchoring/static-receipts.port.js';
import { staticReceiptName } from '../../src/core/chainpoint/static-receipt-name.js';
import { confirmBatchAt, insertDataAnchors, randomHash, randomLeaves } from '../support/anchors.js';
import { recordingJobs, TEST_SECRET_KEY, testApp, testConfig, testDeps } from '../support/fixtures.js';
import { startS3, type TestS3 } from '../support/s3-server.js';
import { storeKinds, type TestStore } from '../support/stores.js';

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
      await batchAt(1000);
      watchedIds = await insertDataAnchors(s.db, account.id, randomLeaves(5), 'watched');
      await batchAt(1090);
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

    it('writes each settled receipt once, the very bytes the route serves, under a keyed name', async () => {
      const deps = { ...testDeps(s.store), staticReceipts: statics };
      const run = await publishStaticReceipts(deps, { budgetMs: 60_000 });
      assert.deepEqual(run, { written: settledIds.length, more: false });
      for (const id of settledIds) {
        const name = staticReceiptName(TEST_SECRET_KEY, id);
        assert.match(name, /^[0-9a-f]{64}$/);
        assert.ok(!name.includes(id.replaceAll('-', '')));
        const bytes = await s3.get(`svc/receipts/${name}.json`);
        assert.equal(Buffer.from(bytes!).toString('utf8'), served.get(id));
      }
      for (const id of watchedIds)
        assert.equal(await s3.get(`svc/receipts/${staticReceiptName(TEST_SECRET_KEY, id)}.json`), null, 'not settled');
      assert.deepEqual(await publishStaticReceipts(deps, { budgetMs: 60_000 }), { written: 0, more: false });
    });

    it('redirects a written receipt when enabled; the rest, and every receipt when not enabled, as before', async () => {
      for (const id of settledIds) {
        const r = await get(redirecting, id);
        assert.equal(r.statusCode, 302);
        assert.equal(r.headers.location, `${base}${staticReceiptName(TEST_SECRET_KEY, id)}.json`);
        assert.equal(r.headers['cache-control'], 'public, max-age=86400');
        const p = await get(plain, id);
        assert.equal(p.statusCode, 200);
        assert.equal(p.body, served.get(id));
      }
      for (const id of watchedIds) assert.equal((await get(redirecting, id)).statusCode, 200);
      assert.equal((await get(redirecting, '00000000-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await get(redirecting, 'not-a-uuid')).statusCode, (await get(plain, 'not-a-uuid')).statusCode);
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
