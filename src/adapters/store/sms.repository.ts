import type { SmsRecord, SmsRepository, SmsStatus } from '../../app/sms/sms-outbox.port.js';
import type { Sql } from './sql.js';

interface SmsRow {
  id: string;
  to_phone: string;
  sender_name: string;
  body_sealed: string | null;
  purpose: string;
  status: SmsStatus;
  attempts: number;
  provider_id: string | null;
  sender: string | null;
  last_error: string | null;
  created: number;
  not_after: number | null;
  sent: number | null;
}

function toRecord(r: SmsRow): SmsRecord {
  return {
    id: r.id,
    to: r.to_phone,
    senderName: r.sender_name,
    bodySealed: r.body_sealed,
    purpose: r.purpose,
    status: r.status,
    attempts: r.attempts,
    providerId: r.provider_id,
    sender: r.sender,
    lastError: r.last_error,
    created: r.created,
    notAfter: r.not_after,
    sent: r.sent,
  };
}

export function smsRepository(sql: Sql): SmsRepository {
  return {
    async insert(s) {
      await sql.query(
        `INSERT INTO sms (id, to_phone, sender_name, body_sealed, purpose, status, attempts, provider_id, sender,
           last_error, created, not_after, sent)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`,
        [
          s.id,
          s.to,
          s.senderName,
          s.bodySealed,
          s.purpose,
          s.status,
          s.attempts,
          s.providerId,
          s.sender,
          s.lastError,
          s.created,
          s.notAfter,
          s.sent,
        ],
      );
    },
    async findById(id) {
      const rows = await sql.query<SmsRow>('SELECT * FROM sms WHERE id = $1', [id]);
      return rows[0] && toRecord(rows[0]);
    },
    async claim(id) {
      const rows = await sql.query<SmsRow>(
        `UPDATE sms SET status = 'SENDING', attempts = attempts + 1 WHERE id = $1 AND status = 'QUEUED' RETURNING *`,
        [id],
      );
      return rows[0] && toRecord(rows[0]);
    },
    async settle(id, o) {
      await sql.query(
        `UPDATE sms SET status = $2, provider_id = COALESCE($3, provider_id), sender = COALESCE($4, sender),
           last_error = COALESCE($5, last_error), sent = COALESCE($6, sent),
           body_sealed = CASE WHEN $7 THEN NULL ELSE body_sealed END
         WHERE id = $1`,
        [id, o.status, o.providerId ?? null, o.sender ?? null, o.error ?? null, o.sent ?? null, o.eraseBody === true],
      );
    },
    async list({ limit }) {
      const rows = await sql.query<SmsRow>('SELECT * FROM sms ORDER BY created DESC, id DESC LIMIT $1', [limit]);
      return rows.map(toRecord);
    },
  };
}
