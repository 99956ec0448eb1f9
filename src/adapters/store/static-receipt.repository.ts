import type {
  BatchToPublish,
  PublishedReceipt,
  StaticReceiptRepository,
} from '../../app/anchoring/static-receipts.port.js';
import type { Sql } from './sql.js';
import { isUuid } from '../../core/text/uuid.js';

/** Whether the static receipts recorded for a batch (`b`) are those of its present transaction. */
const FOR_PRESENT_TX = `b.static_receipts_tx IS NOT DISTINCT FROM b.tx_id`;

/** How far the static receipts of confirmed batches are written, and for which transaction (migrations 028, 032). */
export function staticReceiptRepository(sql: Sql): StaticReceiptRepository {
  return {
    async batchesToPublish(limit) {
      const rows = await sql.query<{ id: string; tx_id: string; next_seq: string | number; last_seq: string | number }>(
        `SELECT b.id, b.tx_id, b.last_seq,
           CASE WHEN ${FOR_PRESENT_TX} THEN coalesce(b.static_receipts_through + 1, b.first_seq) ELSE b.first_seq END AS next_seq
         FROM batch b
         WHERE b.status = 'CONFIRMED' AND b.tx_id IS NOT NULL AND b.first_seq IS NOT NULL
           AND (NOT ${FOR_PRESENT_TX} OR b.static_receipts_through IS NULL OR b.static_receipts_through < b.last_seq)
         ORDER BY b.last_seq LIMIT $1`,
        [limit],
      );
      return rows.map((r): BatchToPublish => ({
        id: r.id,
        txId: r.tx_id,
        nextSeq: Number(r.next_seq),
        lastSeq: Number(r.last_seq),
      }));
    },
    async anchorsInRange(fromSeq, toSeq, limit) {
      const rows = await sql.query<{ id: string; seq: string | number }>(
        'SELECT id, seq FROM anchor WHERE seq BETWEEN $1 AND $2 ORDER BY seq LIMIT $3',
        [fromSeq, toSeq, limit],
      );
      return rows.map((r) => ({ id: r.id, seq: Number(r.seq) }));
    },
    async markPublished(batchId, txId, throughSeq) {
      await sql.query(
        `UPDATE batch b SET static_receipts_tx = $2, static_receipts_through =
           CASE WHEN ${FOR_PRESENT_TX} THEN greatest(coalesce(b.static_receipts_through, $3), $3) ELSE $3 END
         WHERE b.id = $1 AND b.tx_id = $2`,
        [batchId, txId, throughSeq],
      );
    },
    async published(ids) {
      const valid = ids.filter((id) => isUuid(id));
      if (valid.length === 0) return new Map();
      const rows = await sql.query<{ id: string; tx_id: string; settled: boolean }>(
        `SELECT a.id, b.tx_id, b.settled FROM anchor a
         JOIN LATERAL (SELECT r.first_seq, r.static_receipts_through, r.static_receipts_tx, r.tx_id, r.status, r.settled
           FROM batch r WHERE r.last_seq >= a.seq ORDER BY r.last_seq LIMIT 1) b ON true
         WHERE a.id = ANY($1::uuid[]) AND b.first_seq <= a.seq AND a.seq <= b.static_receipts_through
           AND b.status = 'CONFIRMED' AND b.static_receipts_tx = b.tx_id`,
        // PostgreSQL's array text (the ids are checked UUIDs): the drivers would escape each element in JS.
        [`{${valid.join(',')}}`],
      );
      return new Map(rows.map((r): [string, PublishedReceipt] => [r.id, { txId: r.tx_id, settled: r.settled }]));
    },
  };
}
