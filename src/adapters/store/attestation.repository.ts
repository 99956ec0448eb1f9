import type { AttestationRepository } from '../../app/signature-requests/attestation/attestation.port.js';
import type { Sql } from './sql.js';

/** Attestation PDFs in `signature_request_attestation` (migration 018). */
export function attestationRepository(sql: Sql): AttestationRepository {
  return {
    async find(requestId) {
      const rows = await sql.query<{ pdf: Uint8Array }>(
        'SELECT pdf FROM signature_request_attestation WHERE request_id = $1',
        [requestId],
      );
      return rows[0] ? new Uint8Array(rows[0].pdf) : null;
    },
    async save(requestId, pdf, now) {
      const rows = await sql.query(
        `INSERT INTO signature_request_attestation (request_id, pdf, created) VALUES ($1, $2, $3)
         ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
        [requestId, Buffer.from(pdf), now],
      );
      return rows.length > 0;
    },
    async keptIds(afterId, limit) {
      const rows = await sql.query<{ request_id: string }>(
        `SELECT request_id FROM signature_request_attestation WHERE $1::uuid IS NULL OR request_id > $1::uuid
         ORDER BY request_id LIMIT $2`,
        [afterId, limit],
      );
      return rows.map((r) => r.request_id);
    },
    async remove(requestId) {
      const rows = await sql.query(
        'DELETE FROM signature_request_attestation WHERE request_id = $1 RETURNING request_id',
        [requestId],
      );
      return rows.length > 0;
    },
  };
}
