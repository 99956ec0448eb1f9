import type { BtcTx, BtcTxRepository, BtcTxStatus } from '../../app/anchoring/bitcoin.port.js';
import type { SpendableUtxo } from '../../core/bitcoin/anchor-tx.js';
import type { Sql } from './sql.js';

/**
 * The advisory lock under which one process of a store at a time signs and broadcasts. Keyed by the schema,
 * since advisory locks are database-wide: a service in another schema of the database must not hold it.
 */
const SEND_LOCK = "hashtextextended('proofseal:send:' || current_schema(), 0)";

interface BtcTxRow {
  txid: string;
  batch_id: string;
  raw_hex: string;
  fee_sat: number;
  fee_rate_sat_vb: number;
  vsize: number;
  inputs: SpendableUtxo[];
  change: SpendableUtxo | null;
  replaces: string | null;
  status: BtcTxStatus;
  broadcast_height: number | null;
  created: number;
}

const toBtcTx = (r: BtcTxRow): BtcTx => ({
  txid: r.txid,
  batchId: r.batch_id,
  hex: r.raw_hex,
  feeSat: r.fee_sat,
  feeRateSatVb: r.fee_rate_sat_vb,
  vsize: r.vsize,
  inputs: r.inputs,
  change: r.change,
  replaces: r.replaces,
  status: r.status,
  broadcastHeight: r.broadcast_height,
  created: r.created,
});

export function btcTxRepository(sql: Sql, kind: 'postgres' | 'embedded'): BtcTxRepository {
  return {
    async whileSending(fn) {
      if (kind === 'embedded') return fn();
      // The lock's transaction runs no other statement: fn writes through the pool, so what it records is
      // committed at once (a SIGNED row must exist before its broadcast), whatever becomes of this one.
      return sql.transaction(async (tx) => {
        const [row] = await tx.query<{ locked: boolean }>(
          `SELECT pg_try_advisory_xact_lock(${SEND_LOCK}) AS locked`,
          [],
        );
        return row?.locked ? fn() : null;
      });
    },
    async insert(t) {
      await sql.query(
        `INSERT INTO btc_tx (txid, batch_id, raw_hex, fee_sat, fee_rate_sat_vb, vsize, inputs, change, replaces, status, broadcast_height, created, last_modified)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $12)`,
        [
          t.txid,
          t.batchId,
          t.hex,
          t.feeSat,
          t.feeRateSatVb,
          t.vsize,
          JSON.stringify(t.inputs),
          t.change === null ? null : JSON.stringify(t.change),
          t.replaces,
          t.status,
          t.broadcastHeight,
          t.created,
        ],
      );
    },
    async ofBatch(batchId) {
      // created can tie within a millisecond; a replacement always names what it replaces, so it sorts first.
      const rows = await sql.query<BtcTxRow>(
        `SELECT * FROM btc_tx WHERE batch_id = $1 ORDER BY created DESC, (replaces IS NULL), txid`,
        [batchId],
      );
      return rows.map(toBtcTx);
    },
    async withStatus(status) {
      return (await sql.query<BtcTxRow>('SELECT * FROM btc_tx WHERE status = $1 ORDER BY created, txid', [status])).map(
        toBtcTx,
      );
    },
    async findByTxid(txid) {
      const rows = await sql.query<BtcTxRow>('SELECT * FROM btc_tx WHERE txid = $1', [txid]);
      return rows[0] ? toBtcTx(rows[0]) : null;
    },
    async setStatus(txid, status, now, broadcastHeight) {
      await sql.query(
        'UPDATE btc_tx SET status = $2, last_modified = $3, broadcast_height = COALESCE($4, broadcast_height) WHERE txid = $1',
        [txid, status, now, broadcastHeight ?? null],
      );
    },
    async releaseOrphanReservations() {
      const rows = await sql.query(
        `UPDATE utxo u SET status = 'available' WHERE u.status = 'reserved' AND NOT EXISTS (
           SELECT 1 FROM btc_tx t, jsonb_array_elements(t.inputs) i
           WHERE t.status IN ('SIGNED', 'BROADCAST', 'CONFIRMED') AND i->>'txid' = u.txid AND (i->>'vout')::int = u.vout)
         RETURNING 1`,
      );
      return rows.length;
    },
  };
}
