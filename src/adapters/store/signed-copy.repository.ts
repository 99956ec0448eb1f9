import type {
  KeptSignedCopy,
  SignedCopyRepository,
} from '../../app/signature-requests/attestation/attestation.port.js';
import type { Sql } from './sql.js';

interface Row {
  original_sha256: string;
  suffix: Uint8Array | null;
  sha256: string | null;
  size: string | number | null;
  refusal: string | null;
}

/** Signed copies in `signature_request_signed_copy` (migration 027). */
export function signedCopyRepository(sql: Sql): SignedCopyRepository {
  return {
    async find(requestId) {
      const rows = await sql.query<Row>(
        `SELECT original_sha256, suffix, sha256, size, refusal FROM signature_request_signed_copy
         WHERE request_id = $1`,
        [requestId],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.suffix === null) return { originalSha256: row.original_sha256, refusal: row.refusal ?? '' };
      return {
        originalSha256: row.original_sha256,
        suffix: new Uint8Array(row.suffix),
        sha256: row.sha256 ?? '',
        size: Number(row.size),
      };
    },
    async save(requestId, copy: KeptSignedCopy, now) {
      const made = 'suffix' in copy;
      const rows = await sql.query(
        `INSERT INTO signature_request_signed_copy (request_id, original_sha256, suffix, sha256, size, refusal, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
        [
          requestId,
          copy.originalSha256,
          made ? Buffer.from(copy.suffix) : null,
          made ? copy.sha256 : null,
          made ? copy.size : null,
          made ? null : copy.refusal,
          now,
        ],
      );
      return rows.length > 0;
    },
    async remove(requestId) {
      const rows = await sql.query(
        'DELETE FROM signature_request_signed_copy WHERE request_id = $1 RETURNING request_id',
        [requestId],
      );
      return rows.length > 0;
    },
  };
}
