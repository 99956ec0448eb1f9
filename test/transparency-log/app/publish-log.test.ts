// tier: slow (both stores, an S3 server and Go's checker, a thousand entries)
/**
 * The log's files written to the object store beside the static receipts (src/app/transparency/publish-log.ts),
 * against a real S3 HTTP server (s3rver): the bucket's `log/` holds the checkpoint, every full tile and entry
 * bundle and the partial right edge, byte for byte what `/log/` serves and with its cache headers; Go's
 * sumdb/tlog (test/tlog/go-checker) reads the bucket as a tlog-tiles log, proves every entry and the
 * consistency with an older checkpoint; a backlog is written a step at a time and resumes where it stopped.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { parseObjectStoreUrl, s3Client, type S3Client } from '../../../src/adapters/objects/s3-client.js';
import { s3LogObjects } from '../../../src/adapters/objects/s3-log-objects.js';
import { publishLog } from '../../../src/app/transparency/publish-log.js';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import type { LogObjects } from '../../../src/app/transparency/transparency.port.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { testApp, testDeps } from '../../support/fixtures.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

for (const kind of await storeKinds()) {
  describe(`the log's files in the object store on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let server: TestS3;
    let s3: S3Client;
    let deps: AppDeps & { transparency: { origin: string; objects: LogObjects } };
    let app: FastifyInstance;
    /** The log as the API serves it, and as the bucket does (anonymous reads, as a CDN would make). */
    let api = '';
    let bucket = '';
    let prefix = '';
    let go: GoChecker;
    let vkey = '';
    const accountId = randomUUID();

    before(async () => {
      s = await kind.open();
      server = await startS3('proofseal-log', 'svc');
      const loc = parseObjectStoreUrl(server.url);
      s3 = s3Client(loc);
      prefix = `${loc.prefix}log/`;
      const transparency = { origin: 'proofseal.test/log', objects: s3LogObjects(s3, loc.prefix) };
      deps = { ...testDeps(s.store), transparency };
      app = await testApp(s.store, { deps: { transparency } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/log`;
      bucket = `${loc.endpoint}/${loc.bucket}/${prefix.replace(/\/$/, '')}`;
      go = startGoChecker();
      vkey = (await (await fetch(`${api}/key`)).text()).trim();
    });
    after(async () => {
      await go.close();
      await app.close();
      await server.close();
      await s.destroy();
    });

    const logAnchors = async (n: number): Promise<number> => {
      await insertDataAnchors(s.db, accountId, randomLeaves(n));
      while ((await sequenceLog(deps)).more);
      return (await s.store.tlog.checkpoint())!.size;
    };
    const written = async (): Promise<string[]> => {
      const keys: string[] = [];
      for await (const key of s3.list(prefix)) keys.push(key.slice(prefix.length));
      return keys.sort();
    };
    /** Each object of the bucket is what the API serves under its path: bytes, type and caching. */
    const assertSameAsServed = async (paths: string[]): Promise<void> => {
      for (const path of paths) {
        const [fromBucket, fromApi] = await Promise.all([fetch(`${bucket}/${path}`), fetch(`${api}/${path}`)]);
        assert.equal(fromBucket.status, 200, path);
        assert.equal(fromApi.status, 200, path);
        assert.deepEqual(Buffer.from(await fromBucket.arrayBuffer()), Buffer.from(await fromApi.arrayBuffer()), path);
        for (const h of ['content-type', 'cache-control'])
          assert.equal(fromBucket.headers.get(h), fromApi.headers.get(h), `${h} of ${path}`);
      }
    };
    const every = (size: number) => Array.from({ length: size }, (_, i) => i);

    it('writes nothing before the first checkpoint, then the checkpoint, the full tiles and the partial edge', async () => {
      assert.deepEqual(await publishLog(deps, { budgetMs: 20_000 }), { written: 0, size: 0, more: false });
      assert.equal((await fetch(`${bucket}/checkpoint`)).status, 404);
      const size = await logAnchors(300);
      assert.equal(size, 300);
      const run = await publishLog(deps, { budgetMs: 20_000 });
      assert.deepEqual(run, { written: 6, size: 300, more: false });
      const paths = await written();
      assert.deepEqual(paths, [
        'checkpoint',
        'tile/0/000',
        'tile/0/001.p/44',
        'tile/1/000.p/1',
        'tile/entries/000',
        'tile/entries/001.p/44',
      ]);
      await assertSameAsServed(paths);
      const a = await go.ask({ op: 'tiles', url: bucket, vkey, indexes: every(size) });
      assert.ok(a.ok, a.error);
      assert.equal(a.size, 300);
      assert.equal(await s.store.tlog.publishedSize(), 300);
      assert.deepEqual(await publishLog(deps, { budgetMs: 20_000 }), { written: 0, size: 300, more: false });
    });

    it("a later checkpoint: the new tiles beside the older checkpoint's partial ones, consistent with it", async () => {
      const older = await (await fetch(`${bucket}/checkpoint`)).text();
      const size = await logAnchors(250);
      assert.equal(size, 550);
      await publishLog(deps, { budgetMs: 20_000 });
      const paths = await written();
      for (const p of ['tile/0/001', 'tile/0/002.p/38', 'tile/1/000.p/2', 'tile/entries/002.p/38', 'tile/0/001.p/44'])
        assert.ok(paths.includes(p), `${p} in ${paths.join(' ')}`);
      await assertSameAsServed(paths);
      const a = await go.ask({ op: 'tiles', url: bucket, vkey, indexes: every(size), oldNote: older });
      assert.ok(a.ok, a.error);
      assert.equal(a.size, 550);
    });

    it('writes a backlog a step at a time, each step recorded, and resumes where it stopped', async () => {
      const size = await logAnchors(1000);
      assert.equal(size, 1550);
      // A clock a second later at each read: with a budget of 1.5 s, each run writes one step and stops.
      let t = 0;
      const stepping = { ...deps, clock: { now: () => (t += 1000) } };
      const sizes: number[] = [];
      for (;;) {
        const run = await publishLog(stepping, { budgetMs: 1500, entriesPerStep: 256 });
        sizes.push(await s.store.tlog.publishedSize());
        if (!run.more) break;
      }
      assert.deepEqual(sizes, [768, 1024, 1280, 1550], 'steps of 256 entries, the last with the edge and checkpoint');
      const paths = await written();
      for (const p of ['tile/0/002', 'tile/0/005', 'tile/0/006.p/14', 'tile/entries/005', 'tile/1/000.p/6'])
        assert.ok(paths.includes(p), `${p} in ${paths.join(' ')}`);
      await assertSameAsServed(paths);
      const a = await go.ask({ op: 'tiles', url: bucket, vkey, indexes: every(size) });
      assert.ok(a.ok, a.error);
      assert.equal(a.size, 1550);
    });
    it('an object store that dies mid-way (as a killed worker would leave it): no checkpoint ahead of its tiles, and the next run completes it', async () => {
      const before = (await s.store.tlog.checkpoint())!;
      const size = await logAnchors(700);
      assert.ok(size > before.size + 600);
      const real = deps.transparency.objects;
      let puts = 0;
      const dying: LogObjects = {
        put: async (path, file) => {
          if (++puts > 5) throw new Error('the object store went away');
          await real.put(path, file);
        },
      };
      await assert.rejects(
        publishLog(
          { ...deps, transparency: { ...deps.transparency, objects: dying } },
          { budgetMs: 60_000, entriesPerStep: 256 },
        ),
        /went away/,
      );
      const note = await (await fetch(`${bucket}/checkpoint`)).text();
      assert.equal(note, before.note, "the bucket's checkpoint is still the older one: every tile it names is there");
      const older = await go.ask({ op: 'tiles', url: bucket, vkey, indexes: every(before.size) });
      assert.ok(older.ok, older.error);
      assert.ok((await s.store.tlog.publishedSize()) < size, 'the run stopped short of the new size');
      await publishLog(deps, { budgetMs: 60_000, entriesPerStep: 256 });
      assert.equal(await s.store.tlog.publishedSize(), size);
      await assertSameAsServed(await written());
      const whole = await go.ask({ op: 'tiles', url: bucket, vkey, indexes: every(size), oldNote: before.note });
      assert.ok(whole.ok, whole.error);
      assert.equal(whole.size, size);
    });
  });
}
