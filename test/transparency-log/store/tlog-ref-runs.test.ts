/**
 * Migration 038: an anchor's index in the transparency log is kept by stretches of seqs (a row per stretch of
 * anchors logged one after another, not a row per anchor). On both stores: the refs kept before it are carried
 * over, each anchor's index found by its id as before, holes and unlogged anchors still without one; refs added
 * after it split at every hole in the seqs; and on PostgreSQL with lz4 the entry bundles are compressed with it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { migrate } from '../../../src/adapters/store/migrate.js';
import { refRuns, tlogRepository } from '../../../src/adapters/store/tlog.repository.js';
import type { Sql } from '../../../src/adapters/store/sql.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { migrationsBefore, openBareDatabase } from '../../support/migrated-before.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();
const before038 = migrationsBefore('038-tlog-ref-runs');

/** `n` data anchors; their ids and seqs in seq order. */
async function anchors(db: Sql, n: number): Promise<{ id: string; seq: number }[]> {
  const ids = await insertDataAnchors(db, randomUUID(), randomLeaves(n));
  const rows = await db.query<{ id: string; seq: string }>('SELECT id, seq FROM anchor WHERE id = ANY($1::uuid[])', [
    ids,
  ]);
  return rows.map((r) => ({ id: r.id, seq: Number(r.seq) })).sort((a, b) => a.seq - b.seq);
}

describe('refRuns: the stretches of a sequencer run', () => {
  it('one stretch while seqs follow one another, a new one after each hole, indexes counted across holes', () => {
    assert.deepEqual(refRuns(100, []), []);
    assert.deepEqual(refRuns(100, [7]), [[7, 7, 100]]);
    assert.deepEqual(refRuns(100, [5, 6, 7, 9, 10, 20]), [
      [5, 7, 100],
      [9, 10, 103],
      [20, 20, 105],
    ]);
  });
});

for (const kind of kinds) {
  describe(`migration 038 on ${kind.name}`, { skip: kind.skip }, () => {
    const opened: { close(): Promise<void> }[] = [];
    after(async () => {
      for (const o of opened) await o.close();
    });

    it('carries the per-anchor refs over as stretches: every index as before, the holes still without one', async () => {
      const { db, close } = await openBareDatabase(kind.name);
      opened.push({ close });
      await migrate(db, Date.now, before038);
      const a = await anchors(db, 12);
      // Logged as two sequencer runs would have: a[0..3] at 0..3, a[4] left out (a checkpoint seal), a[5..6] at
      // 4..5; then two entries of other kinds, a[7..9] at 8..10; a[10..11] not logged yet.
      const logged = new Map<number, number>([
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
        [5, 4],
        [6, 5],
        [7, 8],
        [8, 9],
        [9, 10],
      ]);
      for (const [k, idx] of logged)
        await db.query('INSERT INTO tlog_ref (seq, idx) VALUES ($1, $2)', [a[k]!.seq, idx]);
      assert.deepEqual(await migrate(db, Date.now), ['038-tlog-ref-runs']);
      const runs = await db.query<{ seq_from: string; seq_to: string; idx_from: string }>(
        'SELECT seq_from, seq_to, idx_from FROM tlog_ref_run ORDER BY seq_from',
      );
      assert.deepEqual(
        runs.map((r) => [Number(r.seq_from) - a[0]!.seq, Number(r.seq_to) - a[0]!.seq, Number(r.idx_from)]),
        [
          [0, 3, 0],
          [5, 6, 4],
          [7, 9, 8],
        ],
        'three stretches: one ends at the hole in the seqs, one where the indexes jump',
      );
      const tlog = tlogRepository(db);
      for (const [k, anchor] of a.entries())
        assert.equal(await tlog.indexOf(anchor.id), logged.get(k) ?? null, `anchor ${k}`);
      const [tableLeft] = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'tlog_ref' AND table_schema = current_schema()",
      );
      assert.equal(Number(tableLeft!.n), 0, 'tlog_ref is gone');
    });

    it('refs added after it: a run with holes is found anchor by anchor, the holes and later anchors not', async () => {
      const { db, close } = await openBareDatabase(kind.name);
      opened.push({ close });
      await migrate(db, Date.now);
      const a = await anchors(db, 10);
      const tlog = tlogRepository(db);
      // One run logs a[0..2], a[4..6], a[8] at 50..56 (a[3] and a[7] are holes); a[9] waits.
      const seqs = [0, 1, 2, 4, 5, 6, 8].map((k) => a[k]!.seq);
      await db.transaction(async (tx) => {
        await tlogRepository(tx).addRefs(50, seqs);
      });
      const [count] = await db.query<{ n: string }>('SELECT count(*) AS n FROM tlog_ref_run');
      assert.equal(Number(count!.n), 3, 'a row per stretch, not per anchor');
      const expected = [50, 51, 52, null, 53, 54, 55, null, 56, null];
      for (const [k, anchor] of a.entries()) assert.equal(await tlog.indexOf(anchor.id), expected[k], `anchor ${k}`);
      assert.equal(await tlog.indexOf(randomUUID()), null, 'an unknown anchor');
      assert.equal(await tlog.indexOf('not-a-uuid'), null);
    });

    // PGlite has pglz only: the case is PostgreSQL's.
    if (kind.name === 'postgres')
      it('entry bundles are compressed with lz4 where PostgreSQL has it, pglz otherwise', async () => {
        const { db, close } = await openBareDatabase(kind.name);
        opened.push({ close });
        await migrate(db, Date.now);
        const [lz4] = await db.query<{ has: boolean }>(
          "SELECT 'lz4' = ANY (enumvals) AS has FROM pg_settings WHERE name = 'default_toast_compression'",
        );
        const entries = Buffer.from(
          JSON.stringify(Array.from({ length: 400 }, () => ({ type: 'anchor', id: randomUUID() }))),
        );
        await tlogRepository(db).writeBundles([{ index: 0, count: 256, entries }]);
        const [row] = await db.query<{ method: string | null }>(
          'SELECT pg_column_compression(entries) AS method FROM tlog_bundle WHERE idx = 0',
        );
        assert.equal(row!.method, lz4!.has ? 'lz4' : 'pglz');
      });
  });
}
