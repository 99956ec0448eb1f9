// tier: slow (crash cycles)
/**
 * The static receipts' publisher killed (SIGKILL) in the middle of its work, again and again, on PostgreSQL
 * against a real S3 server (s3rver): after every kill, each receipt `GET /v1/receipt/{id}` redirects to
 * exists and is byte for byte the receipt the route serves itself (the progress is recorded only after its
 * page's objects are written), and a later run finishes the work without rewriting what was recorded.
 * The kill lands right after a page's progress is committed, plus a random delay into the next page's writes.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../../src/adapters/objects/s3-client.js';
import { s3StaticReceipts } from '../../../src/adapters/objects/s3-static-receipts.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { publishStaticReceipts } from '../../../src/app/anchoring/publish-static-receipts.js';
import { confirmBatchAt, insertDataAnchors, randomHash, randomLeaves } from '../../support/anchors.js';
import { recordingJobs, TEST_SECRET_KEY, testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const [, postgres] = await storeKinds();
/** Three batches of this many anchors: several of the publisher's pages (512) each. */
const PER_BATCH = 700;

describe('static receipts across SIGKILLs of their publisher (PostgreSQL, s3rver)', { skip: postgres!.skip }, () => {
  let s: TestStore;
  let server: TestS3;
  let s3: S3Client;
  let redirecting: FastifyInstance;
  let base = '';
  const ids: string[] = [];
  /** What the route itself serves for each anchor, read before any static receipt was written. */
  const served = new Map<string, string>();

  before(async () => {
    s = await postgres!.open();
    server = await startS3('proofseal-crash', 'svc');
    const loc = parseObjectStoreUrl(server.url);
    s3 = s3Client(loc);
    base = `${loc.endpoint}/${loc.bucket}/svc/receipts/`;
    const account = await createAccount(testDeps(s.store), {
      email: 'static-crash@example.com',
      password: 'correct horse battery',
    });
    for (const [k, height] of [1000, 1001, 1090].entries()) {
      const batchIds = await insertDataAnchors(s.db, account.id, randomLeaves(PER_BATCH), `crash-${k}`);
      const jobs = recordingJobs();
      const batch = await closeBatch(
        testDeps(
          s.withJobs(() => jobs),
          { jobs },
        ),
        { maxSize: PER_BATCH },
      );
      await s.store.batches.markSent(batch!.batchId, randomHash(), Date.now());
      await confirmBatchAt(s.store, batch!.batchId, height);
      ids.push(...batchIds);
    }
    await s.store.batches.settleUpTo(1001);
    const statics = { objects: s3StaticReceipts(s3, loc.prefix), publicBaseUrl: base };
    const env = { RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000', OBJECT_STORE_URL: server.url, STATIC_RECEIPTS_URL: base };
    const plain = await testApp(s.store, { config: testConfig(env), deps: { staticReceipts: statics } });
    for (const id of ids) {
      const r = await plain.inject({ method: 'GET', url: `/v1/receipt/${id}` });
      assert.equal(r.statusCode, 200);
      served.set(id, r.body);
    }
    await plain.close();
    redirecting = await testApp(s.store, {
      config: testConfig({ ...env, RECEIPT_REDIRECT: 'true' }),
      deps: { staticReceipts: statics },
    });
  });
  after(async () => {
    await redirecting?.close();
    await server?.close();
    await s?.destroy();
  });

  /** Anchors recorded as written, by the batches' progress (the redirect's own condition). */
  async function recorded(): Promise<number> {
    const [row] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM anchor a JOIN batch b ON a.seq BETWEEN b.first_seq AND b.last_seq
        WHERE a.name LIKE 'crash-%' AND b.static_receipts_tx = b.tx_id AND a.seq <= b.static_receipts_through`,
    );
    return row!.n;
  }

  /** Redirects whose object was read and found right (a name's object never changes). */
  const verified = new Set<string>();

  /** Every redirect leads to an object holding the receipt the route serves; returns how many redirect. */
  async function checkRedirects(): Promise<number> {
    let redirected = 0;
    const check = async (id: string) => {
      const r = await redirecting.inject({ method: 'GET', url: `/v1/receipt/${id}` });
      if (r.statusCode === 200) {
        assert.equal(r.body, served.get(id), 'served as before');
        return;
      }
      assert.equal(r.statusCode, 302);
      const location = String(r.headers.location);
      assert.ok(location.startsWith(base));
      redirected++;
      if (verified.has(location)) return;
      const bytes = await s3.get(`svc/receipts/${location.slice(base.length)}`);
      assert.ok(bytes, `the object a redirect names exists (${id})`);
      assert.equal(Buffer.from(bytes).toString('utf8'), served.get(id));
      verified.add(location);
    };
    for (let i = 0; i < ids.length; i += 32) await Promise.all(ids.slice(i, i + 32).map(check));
    return redirected;
  }

  /** Starts the publisher in a child; SIGKILLs it once its progress has moved past `from`, a moment later. */
  async function runAndKill(from: number): Promise<'killed' | 'done'> {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/publish-static-receipts-child.ts', s.url!, server.url, base, TEST_SECRET_KEY],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    while (!gone && (await recorded()) <= from) await sleep(10);
    if (gone) {
      assert.equal(await exited, 0);
      assert.match(out, /done/);
      return 'done';
    }
    await sleep(Math.floor(Math.random() * 60));
    child.kill('SIGKILL');
    await exited;
    return out.includes('done') ? 'done' : 'killed';
  }

  it('after every kill each redirect leads to its receipt; a later run completes the rest', async () => {
    let progress = 0;
    let kills = 0;
    for (let cycle = 0; cycle < 4; cycle++) {
      const outcome = await runAndKill(progress);
      const now = await recorded();
      assert.ok(now > progress, 'each run records some progress before its kill');
      const redirected = await checkRedirects();
      assert.equal(redirected, now, 'exactly the receipts recorded as written redirect');
      progress = now;
      if (outcome === 'done') break;
      kills++;
      assert.ok(now < ids.length, 'killed while receipts were left');
    }
    assert.ok(kills >= 2, `the publisher was killed mid-run ${kills} times`);
    const loc = parseObjectStoreUrl(server.url);
    const statics = { objects: s3StaticReceipts(s3, loc.prefix), publicBaseUrl: base };
    const rest = await publishStaticReceipts({ ...testDeps(s.store), staticReceipts: statics }, { budgetMs: 60_000 });
    assert.deepEqual(rest, { written: ids.length - progress, more: false }, 'resumed where the progress was recorded');
    assert.equal(await checkRedirects(), ids.length);
  });
});
