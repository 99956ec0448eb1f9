// tier: slow
/**
 * The log's sequencer on both stores (src/app/transparency/sequence-log.ts): anchors and signing events get
 * their indexes in order, the tiles and bundles served under /log/ are what Go's sumdb/tlog reads and proves,
 * checkpoints are signed with the service's key and sealed as anchors, private hashes stay out, an event
 * whose transaction rolls back leaves no entry, a run that rolls back records no signing event's index (the run
 * that logs them records each, by request, in its transaction), and a changed tile or entry is caught by Go and
 * by ours.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { createAnchor } from '../../../src/app/anchoring/create-anchor.js';
import { proveInclusion } from '../../../src/app/transparency/read-log.js';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import { LOG_ACCOUNT_ID } from '../../../src/app/transparency/transparency.port.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { openCheckpoint, parseVerifierKey } from '../../../src/core/tlog/checkpoint.js';
import { decodeEntry, type LogEntry } from '../../../src/core/tlog/entry.js';
import { leafHash, verifyInclusion } from '../../../src/core/tlog/rfc6962.js';
import { unpackBundle } from '../../../src/core/tlog/tiles.js';
import { newSigner, randomHash, signatureBody } from '../../support/anchors.js';
import { recordingJobs, testApp, testDeps } from '../../support/fixtures.js';
import { startGoChecker, type GoChecker } from '../../support/go-tlog.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const transparency = { origin: 'proofseal.test/log' };

for (const kind of kinds) {
  describe(`the transparency log's sequencer on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let deps: AppDeps & { transparency: typeof transparency };
    let app: FastifyInstance;
    let base: string;
    let go: GoChecker;
    let vkey: string;
    const accountId = randomUUID();

    before(async () => {
      s = await kind.open();
      deps = { ...testDeps(s.store), transparency };
      app = await testApp(s.store, { deps: { transparency } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/log`;
      go = startGoChecker();
      vkey = (await (await fetch(`${base}/key`)).text()).trim();
    });
    after(async () => {
      await go.close();
      await app.close();
      await s.destroy();
    });

    const entries = async (): Promise<LogEntry[]> => {
      const size = openCheckpoint(await (await fetch(`${base}/checkpoint`)).text(), parseVerifierKey(vkey)).size;
      const out: LogEntry[] = [];
      for (let n = 0; n * 256 < size; n++) {
        const w = Math.min(256, size - n * 256);
        const res = await fetch(`${base}/tile/entries/${String(n).padStart(3, '0')}${w < 256 ? `.p/${w}` : ''}`);
        assert.equal(res.status, 200);
        out.push(...unpackBundle(Buffer.from(await res.arrayBuffer())).map(decodeEntry));
      }
      return out;
    };

    it('logs anchors in seq order, a private data anchor without its hash, and signs and seals a checkpoint', async () => {
      assert.equal((await fetch(`${base}/checkpoint`)).status, 404);
      const pub = await createAnchor(deps, { accountId, name: 'a', hash: randomHash() });
      const priv = await createAnchor(deps, { accountId, name: 'b', hash: randomHash(), public: false });
      const signer = newSigner();
      const body = signatureBody(signer, { signedIdentity: 'CN=Ada Lovelace' });
      const sig = await createAnchor(deps, { accountId, ...(body as { name: string }), public: false });
      const run = await sequenceLog(deps);
      assert.equal(run.appended, 3);
      const logged = await entries();
      assert.deepEqual(
        logged.map((e) => e.type === 'anchor' && e.id),
        [pub.id, priv.id, sig.id],
      );
      const [a, b, c] = logged as Extract<LogEntry, { type: 'anchor' }>[];
      assert.equal(a!.leaf, pub.hash);
      assert.equal(b!.leaf, null, 'a private data anchor is logged without its hash');
      assert.equal(c!.leaf, sig.leaf.toString('hex'), "a signature anchor's leaf is the hash of its signature");
      assert.equal(c!.signedHash, null, 'nor the hash a private signature signs');
      assert.equal(c!.pubKey, signer.address);
      assert.equal(c!.signedIdentity, 'CN=Ada Lovelace');
      const checkpoint = await (await fetch(`${base}/checkpoint`)).text();
      const answer = await go.ask({ op: 'note', vkey, note: checkpoint });
      assert.ok(answer.ok, answer.error);
      assert.equal(answer.size, 3);
      const seals = await s.db.query<{ hash: string }>('SELECT hash FROM anchor WHERE account_id = $1', [
        LOG_ACCOUNT_ID,
      ]);
      assert.deepEqual(
        seals.map((r) => r.hash),
        [Buffer.from(answer.root!, 'base64').toString('hex')],
        "the checkpoint's root is sealed as an anchor",
      );
    });

    it('logs signing events after the anchors, leaves out an event whose transaction rolled back, and never logs its own seals as anchors', async () => {
      const requestId = randomUUID();
      await s.store.transaction((tx) =>
        tx.tlog.addSignerEvent({ event: 'DECLINED', requestId, signerId: randomUUID(), anchorId: null, at: 5 }),
      );
      await assert.rejects(
        s.store.transaction(async (tx) => {
          await tx.tlog.addSignerEvent({ event: 'CANCELED', requestId, signerId: null, anchorId: null, at: 6 });
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      const more = await createAnchor(deps, { accountId, name: 'c', hash: randomHash() });
      assert.equal((await sequenceLog(deps)).appended, 2);
      assert.equal(
        (await sequenceLog(deps)).appended,
        0,
        'nothing new: the seal of the last checkpoint is not an entry',
      );
      const logged = await entries();
      assert.deepEqual(
        logged.slice(3).map((e) => (e.type === 'anchor' ? e.id : e.type === 'signer-event' ? e.event : e.type)),
        [more.id, 'DECLINED'],
      );
    });

    it("gives the tiles Go's tlog reads, proves every entry, and is consistent with the first checkpoint", async () => {
      const first = (await s.store.tlog.checkpoint(3))!.note;
      for (let i = 0; i < 300; i++) await createAnchor(deps, { accountId, name: `n${i}`, hash: randomHash() });
      while ((await sequenceLog(deps)).more);
      const size = (await s.store.tlog.checkpoint())!.size;
      assert.equal(size, 305);
      const indexes = Array.from({ length: size }, (_, i) => i);
      const a = await go.ask({ op: 'tiles', url: base, vkey, indexes, oldNote: first });
      assert.ok(a.ok, a.error);
      assert.ok(a.paths!.includes('tile/0/000') && a.paths!.includes('tile/0/001.p/49'), a.paths!.join(' '));
    });

    it("proves an anchor's inclusion, checked by ours and by Go", async () => {
      const anchor = await createAnchor(deps, { accountId, name: 'proved', hash: randomHash() });
      await assert.rejects(proveInclusion(deps, { anchorId: anchor.id }), { code: 'NOT_FOUND' });
      await sequenceLog(deps);
      const p = await proveInclusion(deps, { anchorId: anchor.id });
      const c = openCheckpoint(p.checkpoint, parseVerifierKey(vkey));
      const entry = Buffer.from(p.entry, 'base64');
      assert.equal((decodeEntry(entry) as { id: string }).id, anchor.id);
      const proof = p.proof.map((h) => Buffer.from(h, 'base64'));
      assert.ok(verifyInclusion(leafHash(entry), p.index, c.size, proof, c.root));
      const root = c.root.toString('base64');
      const go1 = await go.ask({ op: 'inclusion', size: c.size, root, index: p.index, entry: p.entry, proof: p.proof });
      assert.ok(go1.ok, go1.error);
      const other = await go.ask({
        op: 'inclusion',
        size: c.size,
        root,
        index: p.index - 1,
        entry: p.entry,
        proof: p.proof,
      });
      assert.equal(other.ok, false, 'a proof for another index');
    });

    it('logs anchors that were batched before it ran, rows of a store upgraded from before batch ranges included', async () => {
      const early = [
        await createAnchor(deps, { accountId, name: 'early-1', hash: randomHash() }),
        await createAnchor(deps, { accountId, name: 'early-2', hash: randomHash() }),
      ];
      const closed = await closeBatch({ ...deps, store: s.withJobs(recordingJobs) }, { maxSize: 100_000 });
      assert.ok(closed, 'a batch closed');
      // A store upgraded from before batch ranges (migration 021) holds rows whose batch_id is set.
      await s.db.query('UPDATE anchor SET batch_id = $1 WHERE id = ANY($2::uuid[])', [
        closed.batchId,
        early.map((a) => a.id),
      ]);
      assert.equal(await s.store.batches.hasUnbatched(), false);
      const before = (await s.store.tlog.checkpoint())!.size;
      const run = await sequenceLog(deps);
      assert.equal(run.appended, 2);
      const logged = await entries();
      assert.deepEqual(
        logged.slice(before).map((e) => e.type === 'anchor' && e.id),
        early.map((a) => a.id),
      );
    });

    it("records each signing event's index by request in the run's transaction: none for a run or an event rolled back", async () => {
      const [one, two] = [randomUUID(), randomUUID()];
      const signer = randomUUID();
      await s.store.transaction(async (tx) => {
        await tx.tlog.addSignerEvent({ event: 'DECLINED', requestId: one, signerId: signer, anchorId: null, at: 7 });
        await tx.tlog.addSignerEvent({ event: 'CANCELED', requestId: two, signerId: null, anchorId: null, at: 8 });
        await tx.tlog.addSignerEvent({ event: 'CANCELED', requestId: one, signerId: null, anchorId: null, at: 9 });
      });
      await assert.rejects(
        s.store.transaction(async (tx) => {
          await tx.tlog.addSignerEvent({ event: 'COMPLETED', requestId: one, signerId: null, anchorId: null, at: 10 });
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      const before = (await s.store.tlog.checkpoint())!.size;
      // A run that fails once its entries and refs are written (at its checkpoint) leaves nothing of them.
      const failing: typeof s.store = {
        ...s.store,
        transaction: (fn) =>
          s.store.transaction((tx) =>
            fn({
              ...tx,
              tlog: {
                ...tx.tlog,
                addCheckpoint: () => Promise.reject(new Error('the run fails at its checkpoint')),
              },
            }),
          ),
      };
      await assert.rejects(sequenceLog({ ...deps, store: failing }), /fails at its checkpoint/);
      assert.deepEqual(await s.store.tlog.eventRefs(one), []);
      assert.equal((await s.store.tlog.checkpoint())!.size, before, 'nothing appended');

      assert.equal((await sequenceLog(deps)).appended, 3);
      const refs = await s.store.tlog.eventRefs(one);
      assert.deepEqual(
        refs.map((r) => [r.requestId, r.index, r.anchorId]),
        [
          [one, before, null],
          [one, before + 2, null],
        ],
      );
      assert.deepEqual(
        (await s.store.tlog.eventRefs(two)).map((r) => r.index),
        [before + 1],
      );
      const logged = await entries();
      assert.deepEqual(
        refs.map((r) => {
          const e = logged[r.index]!;
          return e.type === 'signer-event' ? [e.request, e.event, e.time] : e.type;
        }),
        [
          [one, 'DECLINED', 7],
          [one, 'CANCELED', 9],
        ],
        'each ref is the index of its event; the rolled-back COMPLETED has none',
      );
      assert.deepEqual(await s.store.tlog.eventRefs('not a uuid'), []);
    });

    it('a changed tile or a changed entry is refused by Go', async () => {
      const size = (await s.store.tlog.checkpoint())!.size;
      const kept = (await s.store.tlog.tile(0, 0))!;
      const changedTile = Buffer.from(kept);
      changedTile[5] = changedTile[5]! ^ 1; // hash 0: in the proof of entry 1
      await s.store.tlog.writeTiles([{ level: 0, index: 0, hashes: changedTile }]);
      const tile = await go.ask({ op: 'tiles', url: base, vkey, indexes: [1] });
      assert.equal(tile.ok, false, 'a changed tile');
      await s.store.tlog.writeTiles([{ level: 0, index: 0, hashes: kept }]);
      assert.ok((await go.ask({ op: 'tiles', url: base, vkey, indexes: [1] })).ok, 'the tile put back');
      const b = (await s.store.tlog.bundle(1))!;
      const changed = Buffer.from(b.entries);
      changed[10] = changed[10]! ^ 1;
      await s.store.tlog.writeBundles([{ ...b, entries: changed }]);
      const entry = await go.ask({ op: 'tiles', url: base, vkey, indexes: [256] });
      assert.equal(entry.ok, false, 'a changed entry');
      assert.ok(size > 256);
    });
  });
}
