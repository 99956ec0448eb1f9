import type { CallbackAttempt, CallbackRepository } from '../../app/callbacks/callback.port.js';
import type { Sql } from './sql.js';

interface AttemptRow {
  id: string;
  message_id: string;
  account_id: string;
  anchor_id: string | null;
  signature_request_id: string | null;
  url: string;
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
  created: number;
}

export function callbackRepository(sql: Sql): CallbackRepository {
  return {
    async recordAttempt(a: CallbackAttempt) {
      await sql.query(
        `INSERT INTO callback_attempt (id, message_id, account_id, anchor_id, url, attempt, status, error, duration_ms, created,
           signature_request_id)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
        [
          a.id,
          a.messageId,
          a.accountId,
          a.anchorId,
          a.url,
          a.attempt,
          a.status,
          a.error,
          a.durationMs,
          a.created,
          a.signatureRequestId ?? null,
        ],
      );
    },
    async attemptsOf(messageId) {
      const rows = await sql.query<AttemptRow>(
        'SELECT * FROM callback_attempt WHERE message_id = $1 ORDER BY attempt, created',
        [messageId],
      );
      return rows.map((r) => ({
        id: r.id,
        messageId: r.message_id,
        accountId: r.account_id,
        anchorId: r.anchor_id,
        signatureRequestId: r.signature_request_id,
        url: r.url,
        attempt: r.attempt,
        status: r.status,
        error: r.error,
        durationMs: r.duration_ms,
        created: r.created,
      }));
    },
  };
}
