/**
 * The anchor table keeps an index for every way it is read (migration 030 narrowed the indexes a new anchor
 * updates): with sequential scans priced out, each statement's shape below plans an index scan on both
 * stores. The shapes are those of the repositories (anchor, batch and static receipt repositories).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

const BATCH = randomUUID();
const LEAF = `'\\x${'ab'.repeat(32)}'::bytea`;
const HASH = `'${'cd'.repeat(32)}'`;

/** A statement shape, and the index its plan must use. */
const READS: { what: string; sql: string; index: string }[] = [
  {
    what: "a legacy batch's anchors with a callback",
    sql: `SELECT c.id FROM anchor c WHERE c.batch_id = '${BATCH}' AND c.callback_url IS NOT NULL`,
    index: 'anchor_batch_idx|anchor_callback_seq_idx',
  },
  {
    what: "a legacy batch's first anchor",
    sql: `SELECT a.created FROM anchor a WHERE a.batch_id = '${BATCH}' AND a.leaf_index = 0`,
    index: 'anchor_batch_idx',
  },
  {
    what: 'the oldest unbatched anchor',
    sql: 'SELECT created FROM anchor WHERE batch_id IS NULL AND seq > 10 ORDER BY seq LIMIT 1',
    index: 'anchor_seq_idx',
  },
  {
    what: 'the last unbatched seq',
    sql: 'SELECT max(seq) FROM anchor WHERE batch_id IS NULL',
    index: 'anchor_seq_idx',
  },
  {
    what: "a range's leaves",
    sql: "SELECT string_agg(leaf, ''::bytea ORDER BY seq) FROM anchor WHERE batch_id IS NULL AND seq BETWEEN 5 AND 9",
    index: 'anchor_seq_idx',
  },
  {
    what: "a range's anchors for static receipts",
    sql: 'SELECT id, seq FROM anchor WHERE seq BETWEEN 5 AND 9 ORDER BY seq LIMIT 100',
    index: 'anchor_seq_idx',
  },
  {
    what: 'public anchors by anchored hash (leaf)',
    sql: `SELECT a.id FROM anchor a WHERE a.public AND a.leaf = ${LEAF} ORDER BY a.seq LIMIT 10`,
    index: 'anchor_public_leaf_idx',
  },
  {
    what: 'public signature anchors by signed hash',
    sql: `SELECT a.id FROM anchor a WHERE a.public AND a.kind = 'signature' AND a.hash = ${HASH} ORDER BY a.seq LIMIT 10`,
    index: 'anchor_public_hash_idx',
  },
  {
    what: "an account's anchors, newest first",
    sql: `SELECT a.id FROM anchor a WHERE a.account_id = '${randomUUID()}' ORDER BY a.created DESC LIMIT 10`,
    index: 'anchor_account_idx',
  },
];

for (const kind of kinds) {
  describe(`anchor indexes on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    before(async () => {
      s = await kind.open();
    });
    after(() => s?.destroy());

    for (const read of READS)
      it(`${read.what}: an index scan`, async () => {
        const plan = await s.db.transaction(async (tx) => {
          await tx.exec('SET LOCAL enable_seqscan = off');
          return (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${read.sql}`))
            .map((r) => r['QUERY PLAN'])
            .join('\n');
        });
        const index = `(${read.index})`;
        assert.match(
          plan,
          new RegExp(`Index (Only )?Scan( Backward)? using ${index} on anchor|Bitmap Index Scan on ${index}`),
          plan,
        );
        assert.doesNotMatch(plan, /Seq Scan on anchor/, plan);
      });

    it('a new anchor updates only the indexes a query reads it by', async () => {
      // batch_id NULL (a range batch's anchor) and a data anchor: neither in the legacy batch index nor in the
      // signed-hash one.
      const rows = await s.db.query<{ name: string; predicate: string | null }>(
        `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'anchor'::regclass ORDER BY c.relname`,
      );
      const predicate = new Map(rows.map((r) => [r.name, r.predicate]));
      assert.match(predicate.get('anchor_batch_idx') ?? '', /batch_id IS NOT NULL/);
      assert.match(predicate.get('anchor_public_hash_idx') ?? '', /kind = 'signature'/);
      assert.equal(predicate.has('anchor_unbatched_idx'), false);
      assert.equal(predicate.get('anchor_seq_idx'), null);
    });
  });
}
