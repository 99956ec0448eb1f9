import type { Batch, BatchRepository, BatchStatus } from '../../app/anchoring/bitcoin.port.js';
import type { TxMerkleBranch } from '../../core/bitcoin/block-merkle.js';
import type { Sql } from './sql.js';

/** An arbitrary constant: the advisory lock that serialises batch closing across processes. */
const CLOSE_LOCK = 7_140_422_032;

interface BatchRow {
  id: string;
  status: BatchStatus;
  root: Uint8Array;
  leaf_count: number;
  tx_id: string | null;
  block_hash: string | null;
  block_height: number | null;
  block_time: number | null;
  confirmations: number;
  created: number;
}

/** Every column but the tree, which is only ever read a few nodes at a time. */
const COLUMNS = 'id, status, root, leaf_count, tx_id, block_hash, block_height, block_time, confirmations, created';

const toBatch = (r: BatchRow): Batch => ({
  id: r.id,
  status: r.status,
  root: Buffer.from(r.root),
  leafCount: r.leaf_count,
  txId: r.tx_id,
  block:
    r.block_hash !== null && r.block_height !== null && r.block_time !== null
      ? { blockHash: r.block_hash, blockHeight: r.block_height, blockTime: r.block_time }
      : null,
  confirmations: r.confirmations,
  created: r.created,
});

/** Transactions that may still confirm; a batch with one of them needs no new transaction. */
const LIVE_TX = `EXISTS (SELECT 1 FROM btc_tx t WHERE t.batch_id = b.id AND t.status IN ('SIGNED', 'BROADCAST', 'CONFIRMED'))`;

export function batchRepository(sql: Sql): BatchRepository {
  const one = async (text: string, params: unknown[]) => (await sql.query<BatchRow>(text, params)).map(toBatch);
  return {
    async lockClosing() {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [CLOSE_LOCK]);
    },
    async unbatchedState(fullSize) {
      const rows = await sql.query<{ oldest: number | null; full: boolean }>(
        `SELECT (SELECT created FROM anchor WHERE batch_id IS NULL ORDER BY seq LIMIT 1) AS oldest,
                EXISTS (SELECT 1 FROM anchor WHERE batch_id IS NULL ORDER BY seq OFFSET $1 LIMIT 1) AS full`,
        [fullSize - 1],
      );
      return { oldestCreated: rows[0]?.oldest ?? null, full: rows[0]?.full ?? false };
    },
    async hasUnbatched() {
      return (await sql.query('SELECT 1 FROM anchor WHERE batch_id IS NULL LIMIT 1')).length > 0;
    },
    async insertEmpty(id, now) {
      await sql.query(
        `INSERT INTO batch (id, status, root, leaf_count, tree, created, last_modified) VALUES ($1, 'WAIT', '\\x', 0, '\\x', $2, $2)`,
        [id, now],
      );
    },
    async assignUnbatched(batchId, max) {
      // One statement for the whole batch: the numbering comes from the same snapshot as the selection,
      // so the leaf indexes are exactly 0, 2, …, 2(n-1) whatever is inserted meanwhile: an anchor's leaf
      // sits at an even position of the blinded tree, its random sibling at the next (core/merkle/blinding.ts).
      const rows = await sql.query<{ n: number }>(
        `WITH picked AS (SELECT id, seq FROM anchor WHERE batch_id IS NULL ORDER BY seq LIMIT $2),
              numbered AS (SELECT id, (2 * (row_number() OVER (ORDER BY seq) - 1))::int AS idx FROM picked),
              updated AS (UPDATE anchor a SET batch_id = $1, leaf_index = n.idx FROM numbered n WHERE a.id = n.id RETURNING 1)
         SELECT count(*)::int AS n FROM updated`,
        [batchId, max],
      );
      return rows[0]?.n ?? 0;
    },
    async packedLeaves(batchId) {
      const rows = await sql.query<{ leaves: Uint8Array | null }>(
        `SELECT string_agg(leaf, ''::bytea ORDER BY leaf_index) AS leaves FROM anchor WHERE batch_id = $1`,
        [batchId],
      );
      return Buffer.from(rows[0]?.leaves ?? new Uint8Array(0));
    },
    async setTree(batchId, root, leafCount, tree, now) {
      await sql.query('UPDATE batch SET root = $2, leaf_count = $3, tree = $4, last_modified = $5 WHERE id = $1', [
        batchId,
        root,
        leafCount,
        tree,
        now,
      ]);
    },
    async delete(batchId) {
      await sql.query('DELETE FROM batch WHERE id = $1', [batchId]);
    },
    async findById(id) {
      return (await one(`SELECT ${COLUMNS} FROM batch WHERE id = $1`, [id]))[0] ?? null;
    },
    waitingForTx: () =>
      one(
        `SELECT ${COLUMNS} FROM batch b WHERE status = 'WAIT' AND leaf_count > 0 AND NOT ${LIVE_TX} ORDER BY created, id`,
        [],
      ),
    sent: () => one(`SELECT ${COLUMNS} FROM batch WHERE status = 'SENT' ORDER BY created, id`, []),
    confirmedAbove: (minHeight) =>
      one(`SELECT ${COLUMNS} FROM batch WHERE status = 'CONFIRMED' AND block_height > $1 ORDER BY block_height, id`, [
        minHeight,
      ]),
    async markSent(id, txId, now) {
      const rows = await sql.query(
        `UPDATE batch SET status = 'SENT', tx_id = $2, last_modified = $3 WHERE id = $1 AND status = 'WAIT' RETURNING id`,
        [id, txId, now],
      );
      return rows.length === 1;
    },
    async setTxId(id, txId, now) {
      // Only an unconfirmed SENT batch follows a new transaction; a confirmed one keeps the txid that confirmed.
      await sql.query(
        `UPDATE batch SET tx_id = $2, last_modified = $3 WHERE id = $1 AND status = 'SENT' AND block_hash IS NULL`,
        [id, txId, now],
      );
    },
    async recordConfirmation(id, p, confirmations, now) {
      await sql.query(
        `UPDATE batch SET tx_id = $2, block_hash = $3, block_height = $4, block_time = $5, raw_tx = $6, tx_merkle_branch = $7::jsonb,
           confirmations = $8, last_modified = $9 WHERE id = $1`,
        [
          id,
          p.txId,
          p.blockHash,
          p.blockHeight,
          p.blockTime,
          p.rawTx,
          JSON.stringify(p.txMerkleBranch),
          confirmations,
          now,
        ],
      );
    },
    async setConfirmations(id, confirmations, confirmed, now) {
      await sql.query(
        `UPDATE batch SET confirmations = $2, status = CASE WHEN $3 THEN 'CONFIRMED' ELSE status END, last_modified = $4 WHERE id = $1`,
        [id, confirmations, confirmed, now],
      );
    },
    async clearConfirmation(id, now) {
      await sql.query(
        `UPDATE batch SET status = 'SENT', block_hash = NULL, block_height = NULL, block_time = NULL, raw_tx = NULL, tx_merkle_branch = NULL,
           confirmations = 0, last_modified = $2 WHERE id = $1`,
        [id, now],
      );
    },
    async resetToWait(id, now) {
      await sql.query(
        `UPDATE batch SET status = 'WAIT', tx_id = NULL, block_hash = NULL, block_height = NULL, block_time = NULL, raw_tx = NULL,
           tx_merkle_branch = NULL, confirmations = 0, last_modified = $2 WHERE id = $1`,
        [id, now],
      );
    },
    async confirmationProof(id) {
      const rows = await sql.query<{
        tx_id: string;
        block_hash: string;
        block_height: number;
        block_time: number;
        raw_tx: string;
        tx_merkle_branch: TxMerkleBranch;
      }>(
        `SELECT tx_id, block_hash, block_height, block_time, raw_tx, tx_merkle_branch FROM batch WHERE id = $1 AND block_hash IS NOT NULL AND raw_tx IS NOT NULL`,
        [id],
      );
      const r = rows[0];
      return r
        ? {
            txId: r.tx_id,
            blockHash: r.block_hash,
            blockHeight: r.block_height,
            blockTime: r.block_time,
            rawTx: r.raw_tx,
            txMerkleBranch: r.tx_merkle_branch,
          }
        : null;
    },
  };
}
