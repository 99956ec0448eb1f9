// tier: slow (a bcoin regtest node)
/**
 * Closing batches on both stores: leaf order and indexes, the stored tree, the size limit, and the
 * scheduled singleton across two job engines on one database while anchors keep arriving.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createJobEngine, type JobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import type { Sql } from '../../../src/adapters/store/sql.js';
import { SEND_BATCHES, type AnchoringDeps } from '../../../src/app/anchoring/anchoring-deps.js';
import { closeBatch, closeDueBatches } from '../../../src/app/anchoring/close-batch.js';
import { getReceipt } from '../../../src/app/anchoring/get-receipt.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { sha256 } from '../../../src/core/hash/sha256.js';
import {
  blindingSiblings,
  buildMerkleTree,
  buildMerkleTreeFromPacked,
  levelCounts,
  merkleRoot,
  nodeAt,
  proofPath,
  rootFromPath,
  serializeTree,
  type MerkleTree,
} from '../../../src/core/merkle/index.js';
import { closeBatchJob } from '../../../src/jobs/anchoring/bitcoin.jobs.js';
import { NO_PAYLOAD } from '../../../src/jobs/no-payload.js';
import type { JobDefinition } from '../../../src/app/shared/job-definition.port.js';
import { TEST_SETTINGS } from '../../support/anchoring-fixture.js';
import { insertDataAnchors, randomHash, randomLeaves } from '../../support/anchors.js';
import { recordingJobs, silentLog, testClock, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';

const kinds = await storeKinds();

/** Inserts `n` data anchors straight in SQL (one statement); returns their leaves in seq order. */
async function insertAnchors(sql: Sql, accountId: string, n: number): Promise<Buffer[]> {
  const leaves = randomLeaves(n);
  await insertDataAnchors(sql, accountId, leaves);
  return leaves;
}

interface BatchLeaves {
  id: string;
  leafCount: number;
  root: Buffer;
  /** The whole tree, its leaf level put back from the anchors and the key (a hole's leaf left as zeros). */
  tree: MerkleTree;
  /** The stored levels (level 1 up), parts joined. */
  stored: Buffer;
  key: Buffer;
  indexes: number[];
  leaves: Buffer[];
}

async function batchesWithLeaves(sql: Sql): Promise<BatchLeaves[]> {
  const batches = await sql.query<{ id: string; leaf_count: number; root: Uint8Array; tree_key: Uint8Array }>(
    'SELECT id, leaf_count, root, tree_key FROM batch ORDER BY created, id',
  );
  const out: BatchLeaves[] = [];
  for (const b of batches) {
    const rows = await sql.query<{ leaf_index: number; leaf: Uint8Array }>(
      'SELECT ab.leaf_index, a.leaf FROM anchor_batch ab JOIN anchor a ON a.id = ab.anchor_id WHERE ab.batch_id = $1 ORDER BY ab.leaf_index',
      [b.id],
    );
    const parts = await sql.query<{ part: number; nodes: Uint8Array }>(
      'SELECT part, nodes FROM batch_tree_part WHERE batch_id = $1 ORDER BY part',
      [b.id],
    );
    assert.deepEqual(
      parts.map((p) => p.part),
      parts.map((_, i) => i),
      'parts numbered from 0',
    );
    const stored = Buffer.concat(parts.map((p) => p.nodes));
    const key = Buffer.from(b.tree_key);
    const indexes = rows.map((r) => r.leaf_index);
    const leaves = rows.map((r) => Buffer.from(r.leaf));
    out.push({
      id: b.id,
      leafCount: b.leaf_count,
      root: Buffer.from(b.root),
      tree: wholeTree(b.leaf_count, stored, key, indexes, leaves),
      stored,
      key,
      indexes,
      leaves,
    });
  }
  return out;
}

/** The stored levels under a leaf level rebuilt from the anchors' leaves and the siblings derived from the key. */
function wholeTree(leafCount: number, stored: Buffer, key: Buffer, indexes: number[], leaves: Buffer[]): MerkleTree {
  const levelZero = Buffer.alloc(leafCount * 32);
  for (let o = 0; o < leafCount / 2; o++) levelZero.set(blindingSiblings(key, o, 1), (2 * o + 1) * 32);
  indexes.forEach((index, i) => levelZero.set(leaves[i]!, index * 32));
  const levels: Buffer[] = [levelZero];
  let at = 0;
  for (const count of levelCounts(leafCount / 2)) {
    levels.push(stored.subarray(at, at + count * 32));
    at += count * 32;
  }
  assert.equal(at, stored.length, 'the parts hold exactly the levels from level 1 up');
  return { leafCount, levels };
}

/**
 * Blinded layout: anchors at leaf positions 0, 2, …; a secret sibling after each, derived from the batch's key
 * and not stored; level 1 hashes each anchor with its sibling; the stored levels reach the root.
 */
function assertWellFormed(b: BatchLeaves): void {
  assert.equal(b.leafCount, 2 * b.leaves.length, 'twice as many tree leaves as anchors');
  assert.deepEqual(
    b.indexes,
    Array.from({ length: b.leaves.length }, (_, i) => 2 * i),
    'leaf indexes 0, 2, …, 2(n-1)',
  );
  assert.equal(b.key.length, 32, 'a 32-byte key per batch');
  const nonces = b.leaves.map((_, i) => nodeAt(b.tree, 0, 2 * i + 1).toString('hex'));
  assert.equal(new Set(nonces).size, nonces.length, 'a distinct secret sibling per anchor');
  b.leaves.forEach((leaf, i) => {
    assert.ok(!b.stored.includes(leaf), `anchor ${i}'s leaf is not stored with the tree`);
    assert.deepEqual(
      nodeAt(b.tree, 1, i),
      sha256(Buffer.concat([leaf, nodeAt(b.tree, 0, 2 * i + 1)])),
      `level 1, ${i}`,
    );
  });
  assert.deepEqual(merkleRoot(buildMerkleTree(splitNodes(b.tree.levels[0]!))), b.root);
  assert.deepEqual(merkleRoot(b.tree), b.root, 'the stored levels reach that root');
}

function splitNodes(level: Buffer): Buffer[] {
  return Array.from({ length: level.length / 32 }, (_, i) => level.subarray(i * 32, (i + 1) * 32));
}

for (const kind of kinds) {
  describe(`close-batch on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let accountId = '';
    before(async () => {
      s = await kind.open();
      accountId = (
        await createAccount(testDeps(s.store), { email: 'bulk@example.com', password: 'correct horse battery' })
      ).id;
    });
    after(() => s?.destroy());

    it('takes the oldest unbatched anchors in seq order, max size per batch, tree stored once', async () => {
      const jobs = recordingJobs();
      const deps = testDeps(
        s.withJobs(() => jobs),
        { jobs },
      );
      const leaves = await insertAnchors(s.db, accountId, 2500);
      const sizes: number[] = [];
      for (let c = await closeBatch(deps, { maxSize: 1000 }); c; c = await closeBatch(deps, { maxSize: 1000 }))
        sizes.push(c.anchorCount);
      assert.deepEqual(sizes, [1000, 1000, 500]);
      const batches = await batchesWithLeaves(s.db);
      batches.forEach(assertWellFormed);
      assert.deepEqual(
        batches.flatMap((b) => b.leaves),
        leaves,
        'seq order across batches',
      );
      assert.equal((await s.store.batches.waitingForTx()).length, 3);
      assert.equal(jobs.sent.filter((j) => j.name === SEND_BATCHES).length, 3, 'a send is queued per batch');
    });

    it("no anchor's proof path holds another anchor's leaf, and every path leads to the root", async () => {
      const leaves = await insertAnchors(s.db, accountId, 37);
      const closed = await closeBatch(testDeps(s.withJobs(recordingJobs)), { maxSize: 1000 });
      assert.equal(closed?.anchorCount, 37);
      const [b] = (await batchesWithLeaves(s.db)).filter((x) => x.id === closed.batchId);
      const tree = b!.tree;
      const others = new Set(leaves.map((l) => l.toString('hex')));
      b!.leaves.forEach((leaf, i) => {
        const path = proofPath(tree, b!.indexes[i]!);
        const hashes = path.map((step) => ('left' in step ? step.left : step.right));
        assert.ok(!hashes.some((h) => others.has(h)), `anchor ${i}: its proof shows no anchor's hash`);
        assert.deepEqual(rootFromPath(leaf, path), b!.root, `anchor ${i}: the path leads to the root`);
      });
    });

    it('a rolled-back insert leaves a hole in the range: positions follow seq, the hole holds a random leaf', async () => {
      const first = await insertAnchors(s.db, accountId, 5);
      await assert.rejects(
        s.db.transaction(async (tx) => {
          await insertAnchors(tx, accountId, 1);
          throw new Error('rolled back');
        }),
      );
      const second = await insertAnchors(s.db, accountId, 5);
      const closed = await closeBatch(testDeps(s.withJobs(recordingJobs)), { maxSize: 1000 });
      assert.equal(closed?.anchorCount, 10);
      const [b] = (await batchesWithLeaves(s.db)).filter((x) => x.id === closed.batchId);
      assert.deepEqual(b!.indexes, [0, 2, 4, 6, 8, 12, 14, 16, 18, 20], 'no anchor at position 10');
      assert.equal(b!.leafCount, 22);
      const tree = b!.tree;
      assert.deepEqual(b!.leaves, [...first, ...second]);
      b!.leaves.forEach((leaf, i) => {
        assert.deepEqual(nodeAt(tree, 0, b!.indexes[i]!), leaf);
        assert.deepEqual(rootFromPath(leaf, proofPath(tree, b!.indexes[i]!)), b!.root);
      });
    });

    it('an insert still in progress when closing starts is waited for, and lands in that batch', async () => {
      const committed = await insertAnchors(s.db, accountId, 2);
      let inserted!: () => void;
      const insertedSignal = new Promise<void>((r) => (inserted = r));
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const slowInsert = s.db.transaction(async (tx) => {
        const leaves = await insertAnchors(tx, accountId, 3);
        inserted();
        await released;
        return leaves;
      });
      await insertedSignal;
      const closing = closeBatch(testDeps(s.withJobs(recordingJobs)), { maxSize: 1000 });
      // The insert commits only once the close is waiting for it, so the race is certain. PostgreSQL shows
      // the close's lock on the anchor table not granted; PGlite runs one transaction at a time, so a close
      // that has started is queued behind the insert.
      if (kind.name === 'postgres')
        await waitUntil(
          async () =>
            (
              await s.db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'anchor'::regclass",
              )
            )[0]!.n > 0,
          'the close waiting for the anchor table',
        );
      else await new Promise((r) => setImmediate(r));
      release();
      const [leaves, closed] = await Promise.all([slowInsert, closing]);
      const [b] = (await batchesWithLeaves(s.db)).filter((x) => x.id === closed?.batchId);
      assert.deepEqual(
        b?.leaves,
        [...committed, ...leaves],
        'the three anchors committed while the close waited are in the batch, after the two before',
      );
    });

    it('a batch stored before migration 022 (whole serialised tree, stored siblings, no key) still gives valid receipts', async () => {
      const leaves = await insertAnchors(s.db, accountId, 5);
      const [range] = await s.db.query<{ first: number; last: number }>(
        'SELECT min(seq)::int AS first, max(seq)::int AS last FROM anchor WHERE batch_id IS NULL AND seq > (SELECT COALESCE(max(last_seq), 0) FROM batch)',
      );
      const levelZero = Buffer.concat(leaves.flatMap((leaf) => [leaf, randomBytes(32)]));
      const tree = buildMerkleTreeFromPacked(levelZero);
      const id = randomUUID();
      await s.db.query(
        `INSERT INTO batch (id, status, root, leaf_count, tree, first_seq, last_seq, tx_id, created, last_modified)
         VALUES ($1, 'SENT', $2, $3, $4, $5, $6, $7, 0, 0)`,
        [id, merkleRoot(tree), tree.leafCount, serializeTree(tree), range!.first, range!.last, randomHash()],
      );
      const ids = await s.db.query<{ id: string }>('SELECT id FROM anchor WHERE seq BETWEEN $1 AND $2 ORDER BY seq', [
        range!.first,
        range!.last,
      ]);
      for (const [i, { id: anchorId }] of ids.entries()) {
        const r = await getReceipt(testDeps(s.store), { id: anchorId });
        assert.ok(r.complete, `anchor ${i} has a receipt`);
        assert.equal(r.receipt.targetHash, leaves[i]!.toString('hex'));
        assert.deepEqual(r.receipt.proof, proofPath(tree, 2 * i), `anchor ${i}: the path read from the old tree`);
      }
    });

    it('closes nothing when no anchor waits', async () => {
      const before = (await s.db.query('SELECT id FROM batch')).length;
      assert.equal(await closeBatch(testDeps(s.store), { maxSize: 1000 }), null);
      assert.equal((await s.db.query('SELECT id FROM batch')).length, before);
    });
  });

  describe(`due batches on ${kind.name}`, { skip: kind.skip }, () => {
    it('a full batch leaves at once; the rest waits until its oldest anchor has waited the interval', async () => {
      const s = await kind.open();
      try {
        const clock = testClock(1_000_000);
        const deps = testDeps(s.withJobs(recordingJobs), { clock });
        const accountId = (await createAccount(deps, { email: 'due@example.com', password: 'correct horse battery' }))
          .id;
        await insertAnchors(s.db, accountId, 250);
        await s.db.query('UPDATE anchor SET created = $1', [clock.now()]);
        clock.advance(1000);
        const full = await closeDueBatches(deps, { maxSize: 100, intervalMs: 60_000 });
        assert.deepEqual(
          full.map((b) => b.anchorCount),
          [100, 100],
          'two full batches at once, the 50 left wait',
        );
        clock.advance(58_000);
        assert.deepEqual(await closeDueBatches(deps, { maxSize: 100, intervalMs: 60_000 }), [], 'not yet due');
        clock.advance(1_000);
        assert.deepEqual(
          (await closeDueBatches(deps, { maxSize: 100, intervalMs: 60_000 })).map((b) => b.anchorCount),
          [50],
        );
        assert.deepEqual(await closeDueBatches(deps, { maxSize: 100, intervalMs: 60_000 }), [], 'nothing left');
      } finally {
        await s.destroy();
      }
    });
  });

  describe(`close-batch as a scheduled singleton across two engines, ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let second: OpenedStore | null = null;
    const engines: JobEngine[] = [];
    after(async () => {
      for (const e of engines) await e.stop();
      await second?.close();
      await s?.destroy();
    });

    it('every anchor lands in exactly one well-formed batch and the job never runs twice at once', async () => {
      s = await kind.open();
      // PostgreSQL: two pools as two processes would have; PGlite is one process's database, shared.
      second = s.url ? await openStore({ databaseUrl: s.url, embeddedDir: undefined, now: Date.now }) : null;
      const accountId = (
        await createAccount(testDeps(s.store), { email: 'two@example.com', password: 'correct horse battery' })
      ).id;
      let active = 0;
      let maxActive = 0;
      let runs = 0;
      for (const opened of [s, second ?? s]) {
        const engine = createJobEngine(opened.db, silentLog, { pollingIntervalSeconds: 0.5 });
        engines.push(engine);
        await engine.start();
        const deps = {
          ...testDeps(opened.withJobs(engine.sendOn), { jobs: engine }),
          settings: { ...TEST_SETTINGS, batchMaxSize: 700 },
        } as unknown as AnchoringDeps;
        const job = closeBatchJob({ deps, log: silentLog, batchIntervalSeconds: 1, pollSeconds: 1 });
        const counted: JobDefinition = {
          ...job,
          handle: async (d) => {
            active += 1;
            runs += 1;
            maxActive = Math.max(maxActive, active);
            try {
              await job.handle(d);
            } finally {
              active -= 1;
            }
          },
        };
        const send: JobDefinition = {
          name: SEND_BATCHES,
          schema: NO_PAYLOAD,
          policy: 'one-queued-one-running',
          retryLimit: 0,
          retryDelaySeconds: 1,
          retryBackoff: false,
          expireInSeconds: 60,
          handle: async () => undefined,
        };
        await engine.declare([counted, send]);
        await engine.work([counted]);
      }
      const inserted: Buffer[] = [];
      for (let i = 0; i < 12; i++) {
        inserted.push(...(await insertAnchors(s.db, accountId, 400)));
        await new Promise((r) => setTimeout(r, 300));
      }
      const end = Date.now() + 30_000;
      while (
        (
          await s.db.query(
            'SELECT 1 FROM anchor a WHERE NOT EXISTS (SELECT 1 FROM anchor_batch ab WHERE ab.anchor_id = a.id) LIMIT 1',
          )
        ).length > 0
      ) {
        if (Date.now() > end) throw new Error('anchors left unbatched');
        await new Promise((r) => setTimeout(r, 200));
      }
      const batches = await batchesWithLeaves(s.db);
      batches.forEach(assertWellFormed);
      assert.equal(
        batches.reduce((n, b) => n + b.leaves.length, 0),
        inserted.length,
        'no anchor lost or batched twice',
      );
      assert.equal(new Set(batches.flatMap((b) => b.leaves.map((l) => l.toString('hex')))).size, inserted.length);
      assert.ok(batches.every((b) => b.leaves.length <= 700));
      assert.equal(maxActive, 1, `the close job ran concurrently (${runs} runs)`);
      assert.ok(runs >= 3, `scheduled runs: ${runs}`);
    });
  });
}
