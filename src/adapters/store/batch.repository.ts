import type { Batch, BatchRepository, BatchStatus } from '../../app/anchoring/bitcoin.port.js';
import type { TxMerkleBranch } from '../../core/bitcoin/block-merkle.js';
import { asBuffer } from '../../core/hash/hex.js';
import type { Sql } from './sql.js';

/**
 * The advisory lock that serialises batch closing across the processes of one store. Keyed by the schema,
 * since advisory locks are database-wide: services (or tests) in other schemas of the database never wait on it.
 */
const CLOSE_LOCK = "hashtextextended('proofseal:close:' || current_schema(), 0)";

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

/** Anchors in no batch yet: no legacy batch_id, after the last batch's range. */
const UNBATCHED = `batch_id IS NULL AND seq > (SELECT COALESCE(max(last_seq), 0) FROM batch)`;

/** Transactions that may still confirm; a batch with one of them needs no new transaction. */
const LIVE_TX = `EXISTS (SELECT 1 FROM btc_tx t WHERE t.batch_id = b.id AND t.status IN ('SIGNED', 'BROADCAST', 'CONFIRMED'))`;

/**
 * The unbatched anchors' leaves from `firstSeq` to `lastSeq` in one statement: a sort of their rows is small;
 * seqs are read only when the range has a gap.
 */
async function leavesOf(
  sql: Sql,
  firstSeq: number,
  lastSeq: number,
): Promise<{ leaves: Buffer; seqs: number[] | null }> {
  const rows = await sql.query<{ leaves: Uint8Array | null; n: number }>(
    `SELECT string_agg(leaf, ''::bytea ORDER BY seq) AS leaves, count(*)::int AS n
     FROM anchor WHERE batch_id IS NULL AND seq BETWEEN $1 AND $2`,
    [firstSeq, lastSeq],
  );
  const leaves = asBuffer(rows[0]?.leaves ?? new Uint8Array(0));
  if (rows[0]?.n === lastSeq - firstSeq + 1) return { leaves, seqs: null };
  const packed = await sql.query<{ seqs: Uint8Array | null }>(
    `SELECT string_agg(int8send(seq), ''::bytea ORDER BY seq) AS seqs
     FROM anchor WHERE batch_id IS NULL AND seq BETWEEN $1 AND $2`,
    [firstSeq, lastSeq],
  );
  const seqs = asBuffer(packed[0]?.seqs ?? new Uint8Array(0));
  return { leaves, seqs: Array.from({ length: seqs.length / 8 }, (_, i) => Number(seqs.readBigInt64BE(i * 8))) };
}

export interface BatchRepositoryOptions {
  /**
   * Most seqs whose leaves one statement reads (a chunk of a close is read in as many statements as it
   * takes). The embedded store reads fewer at a time: every result crosses its WASM heap and comes out as
   * hex text, whose buffers the JS side grows and drops at each statement.
   */
  readonly readRows?: number;
}

export function batchRepository(sql: Sql, opts: BatchRepositoryOptions = {}): BatchRepository {
  const readRows = opts.readRows ?? 65_536;
  const one = async (text: string, params: unknown[]) => (await sql.query<BatchRow>(text, params)).map(toBatch);
  return {
    async lockClosing() {
      await sql.query(`SELECT pg_advisory_xact_lock(${CLOSE_LOCK})`, []);
    },
    async unbatchedState(fullSize) {
      const rows = await sql.query<{ oldest: number | null; full: boolean }>(
        `SELECT (SELECT created FROM anchor WHERE ${UNBATCHED} ORDER BY seq LIMIT 1) AS oldest,
                EXISTS (SELECT 1 FROM anchor WHERE ${UNBATCHED} ORDER BY seq OFFSET $1 LIMIT 1) AS full`,
        [fullSize - 1],
      );
      return { oldestCreated: rows[0]?.oldest ?? null, full: rows[0]?.full ?? false };
    },
    async batchingState() {
      // The oldest anchor of a WAIT batch is its first: the one at first_seq, or leaf 0 of an older batch.
      const rows = await sql.query<{ oldest: string | number | null; closed: string | number | null }>(
        `SELECT LEAST(
                  (SELECT created FROM anchor WHERE ${UNBATCHED} ORDER BY seq LIMIT 1),
                  (SELECT COALESCE((SELECT a.created FROM anchor a WHERE a.batch_id IS NULL AND a.seq = b.first_seq),
                                   (SELECT a.created FROM anchor a WHERE a.batch_id = b.id AND a.leaf_index = 0))
                    FROM batch b WHERE b.status = 'WAIT' ORDER BY b.created LIMIT 1)) AS oldest,
                (SELECT created FROM batch WHERE leaf_count > 0 ORDER BY created DESC LIMIT 1) AS closed`,
      );
      const { oldest, closed } = rows[0] ?? { oldest: null, closed: null };
      return {
        oldestWaitingCreated: oldest === null ? null : Number(oldest),
        lastClosed: closed === null ? null : Number(closed),
      };
    },
    async hasUnbatched() {
      return (await sql.query(`SELECT 1 FROM anchor WHERE ${UNBATCHED} LIMIT 1`)).length > 0;
    },
    sealedSeq() {
      // SHARE mode waits for every transaction that inserted anchors and holds new inserts back until this
      // short transaction ends: every seq up to the max read here is committed, or rolled back for good.
      return sql.transaction(async (tx) => {
        await tx.query('LOCK TABLE anchor IN SHARE MODE');
        // Every anchor, batched or not (a row of a store older than batch ranges has its batch_id set): the
        // sequencer of the transparency log reads up to here too.
        const rows = await tx.query<{ s: string | null }>('SELECT max(seq) AS s FROM anchor');
        return Number(rows[0]?.s ?? 0);
      });
    },
    async claimRange(max, sealedSeq) {
      const rows = await sql.query<{ first: string | null; last: string | null; n: number }>(
        `SELECT min(seq) AS first, max(seq) AS last, count(*)::int AS n
         FROM (SELECT seq FROM anchor WHERE ${UNBATCHED} AND seq <= $2 ORDER BY seq LIMIT $1) p`,
        [max, sealedSeq],
      );
      const r = rows[0];
      return r && r.n > 0 ? { firstSeq: Number(r.first), lastSeq: Number(r.last), count: r.n } : null;
    },
    async rangeLeaves(firstSeq, lastSeq) {
      const reads: { leaves: Buffer; seqs: number[] | null }[] = [];
      for (let from = firstSeq; from <= lastSeq; from += readRows)
        reads.push(await leavesOf(sql, from, Math.min(lastSeq, from + readRows - 1)));
      const leaves = reads.length === 1 ? reads[0]!.leaves : Buffer.concat(reads.map((r) => r.leaves));
      if (reads.every((r) => r.seqs === null)) return { leaves, seqs: null };
      const seqs = reads.flatMap(
        (r, i) => r.seqs ?? Array.from({ length: r.leaves.length / 32 }, (_, k) => firstSeq + i * readRows + k),
      );
      return { leaves, seqs };
    },
    async insertClosed(b) {
      // The root is set once the tree is hashed (setRoot), before the transaction commits.
      await sql.query(
        `INSERT INTO batch (id, status, root, leaf_count, tree_key, first_seq, last_seq, created, last_modified)
         VALUES ($1, 'WAIT', ''::bytea, $2, $3, $4, $5, $6, $6)`,
        [b.id, b.leafCount, b.treeKey, b.firstSeq, b.lastSeq, b.now],
      );
    },
    async insertTreePart(batchId, part, nodes) {
      // One part a statement: a few MB each, whatever the batch's size.
      await sql.query('INSERT INTO batch_tree_part (batch_id, part, nodes) VALUES ($1, $2, $3)', [
        batchId,
        part,
        nodes,
      ]);
    },
    async setRoot(batchId, root) {
      await sql.query('UPDATE batch SET root = $2 WHERE id = $1', [batchId, root]);
    },
    async receiptState(id) {
      const rows = await sql.query<{ tx_id: string | null; settled: boolean }>(
        `SELECT CASE WHEN status IN ('SENT', 'CONFIRMED') THEN tx_id END AS tx_id, settled FROM batch WHERE id = $1`,
        [id],
      );
      return rows[0] ? { txId: rows[0].tx_id, settled: rows[0].settled } : null;
    },
    async settleUpTo(height) {
      await sql.query(
        `UPDATE batch SET settled = true WHERE status = 'CONFIRMED' AND NOT settled AND block_height <= $1`,
        [height],
      );
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
           confirmations = $8, last_modified = $9, block_header = $10 WHERE id = $1`,
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
          p.blockHeader,
        ],
      );
    },
    async setConfirmations(id, { confirmations, confirmed }, now) {
      await sql.query(
        `UPDATE batch SET confirmations = $2, status = CASE WHEN $3 THEN 'CONFIRMED' ELSE status END, last_modified = $4 WHERE id = $1`,
        [id, confirmations, confirmed, now],
      );
    },
    async clearConfirmation(id, now) {
      await sql.query(
        `UPDATE batch SET status = 'SENT', settled = false, block_hash = NULL, block_height = NULL, block_time = NULL, raw_tx = NULL, tx_merkle_branch = NULL,
           block_header = NULL, confirmations = 0, last_modified = $2 WHERE id = $1`,
        [id, now],
      );
    },
    async resetToWait(id, now) {
      await sql.query(
        `UPDATE batch SET status = 'WAIT', settled = false, tx_id = NULL, block_hash = NULL, block_height = NULL, block_time = NULL, raw_tx = NULL,
           tx_merkle_branch = NULL, block_header = NULL, confirmations = 0, last_modified = $2 WHERE id = $1`,
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
        block_header: string | null;
      }>(
        `SELECT tx_id, block_hash, block_height, block_time, raw_tx, tx_merkle_branch, block_header FROM batch WHERE id = $1 AND block_hash IS NOT NULL AND raw_tx IS NOT NULL`,
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
            blockHeader: r.block_header,
          }
        : null;
    },
    async withoutBlockHeader(limit) {
      const rows = await sql.query<{ id: string; block_hash: string }>(
        `SELECT id, block_hash FROM batch WHERE block_hash IS NOT NULL AND block_header IS NULL ORDER BY block_height LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({ id: r.id, blockHash: r.block_hash }));
    },
    async lowestBlockHeight() {
      const rows = await sql.query<{ h: number | null }>(`SELECT MIN(block_height) AS h FROM batch`);
      return rows[0]?.h ?? null;
    },
    async setBlockHeader(id, blockHash, header) {
      await sql.query(`UPDATE batch SET block_header = $3 WHERE id = $1 AND block_hash = $2`, [id, blockHash, header]);
    },
  };
}
