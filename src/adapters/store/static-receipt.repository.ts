import type { BatchToPublish, StaticReceiptRepository } from '../../app/anchoring/static-receipts.port.js';
import type { Sql } from './sql.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How far the static receipts of settled batches are written (migration 028). */
export function staticReceiptRepository(sql: Sql): StaticReceiptRepository {
  return {
    async batchesToPublish(limit) {
      const rows = await sql.query<{ id: string; next_seq: string | number; last_seq: string | number }>(
        `SELECT id, coalesce(static_receipts_through + 1, first_seq) AS next_seq, last_seq FROM batch
         WHERE settled AND first_seq IS NOT NULL AND (static_receipts_through IS NULL OR static_receipts_through < last_seq)
         ORDER BY last_seq LIMIT $1`,
        [limit],
      );
      return rows.map((r): BatchToPublish => ({ id: r.id, nextSeq: Number(r.next_seq), lastSeq: Number(r.last_seq) }));
    },
    async anchorsInRange(fromSeq, toSeq, limit) {
      const rows = await sql.query<{ id: string; seq: string | number }>(
        'SELECT id, seq FROM anchor WHERE seq BETWEEN $1 AND $2 ORDER BY seq LIMIT $3',
        [fromSeq, toSeq, limit],
      );
      return rows.map((r) => ({ id: r.id, seq: Number(r.seq) }));
    },
    async markPublished(batchId, throughSeq) {
      await sql.query(
        `UPDATE batch SET static_receipts_through = greatest(coalesce(static_receipts_through, $2), $2) WHERE id = $1`,
        [batchId, throughSeq],
      );
    },
    async published(ids) {
      const valid = ids.filter((id) => UUID.test(id));
      if (valid.length === 0) return new Set();
      const rows = await sql.query<{ id: string }>(
        `SELECT a.id FROM anchor a
         JOIN LATERAL (SELECT r.first_seq, r.static_receipts_through FROM batch r WHERE r.last_seq >= a.seq
           ORDER BY r.last_seq LIMIT 1) b ON true
         WHERE a.id = ANY($1::uuid[]) AND b.first_seq <= a.seq AND a.seq <= b.static_receipts_through`,
        [valid],
      );
      return new Set(rows.map((r) => r.id));
    },
  };
}
