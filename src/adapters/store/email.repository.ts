import type { Email, EmailRepository } from '../../app/mail/email.port.js';
import type { Sql } from './sql.js';
import { truncateGraphemes } from '../../core/text/graphemes.js';

interface EmailRow {
  id: string;
  message_id: string;
  account_id: string | null;
  request_id: string | null;
  type: string;
  from_name: string;
  from_address: string;
  to_name: string;
  to_address: string;
  reply_to_name: string | null;
  reply_to_address: string | null;
  subject: string;
  html: string;
  text: string;
  attachments: Email['attachments'];
  status: Email['status'];
  attempts: number;
  last_error: string | null;
  created: string | number;
  sent_at: string | number | null;
}

const toEmail = (r: EmailRow): Email => ({
  id: r.id,
  messageId: r.message_id,
  accountId: r.account_id,
  requestId: r.request_id,
  type: r.type,
  from: { name: r.from_name, address: r.from_address },
  to: { name: r.to_name, address: r.to_address },
  replyTo: r.reply_to_address === null ? null : { name: r.reply_to_name ?? '', address: r.reply_to_address },
  subject: r.subject,
  html: r.html,
  text: r.text,
  attachments: r.attachments,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  created: Number(r.created),
  sentAt: r.sent_at === null ? null : Number(r.sent_at),
});

/** A mail as a row of {@link EmailRepository.insertMany}'s JSON. */
const emailRecord = (e: Email) => ({
  id: e.id,
  message_id: e.messageId,
  account_id: e.accountId,
  request_id: e.requestId,
  type: e.type,
  from_name: e.from.name,
  from_address: e.from.address,
  to_name: e.to.name,
  to_address: e.to.address,
  reply_to_name: e.replyTo?.name ?? null,
  reply_to_address: e.replyTo?.address ?? null,
  subject: e.subject,
  html: e.html,
  text: e.text,
  attachments: e.attachments,
  status: e.status,
  attempts: e.attempts,
  last_error: e.lastError,
  created: e.created,
  sent_at: e.sentAt,
});

export function emailRepository(sql: Sql): EmailRepository {
  async function insertMany(emails: readonly Email[]): Promise<void> {
    if (emails.length === 0) return;
    await sql.writeRows(
      `INSERT INTO email (id, message_id, account_id, request_id, type, from_name, from_address, to_name, to_address,
         reply_to_name, reply_to_address, subject, html, text, attachments, status, attempts, last_error, created, sent_at)
       SELECT id, message_id, account_id, request_id, type, from_name, from_address, to_name, to_address,
         reply_to_name, reply_to_address, subject, html, text, attachments, status, attempts, last_error, created, sent_at
       FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, message_id text, account_id uuid, request_id uuid, type text,
         from_name text, from_address text, to_name text, to_address text, reply_to_name text, reply_to_address text,
         subject text, html text, text text,
         attachments jsonb, status text, attempts integer, last_error text, created bigint, sent_at bigint)`,
      emails.map(emailRecord),
    );
  }

  return {
    // As one of insertMany's rows: the mails of signatures sharing a transaction leave in one statement.
    insert: (e) => insertMany([e]),
    insertMany,
    async findById(id) {
      const [row] = await sql.query<EmailRow>('SELECT * FROM email WHERE id = $1', [id]);
      return row ? toEmail(row) : null;
    },
    async countQueued(accountId, cap) {
      const [row] = await sql.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM (SELECT 1 FROM email WHERE account_id = $1 AND status = 'queued' LIMIT $2) AS q`,
        [accountId, cap],
      );
      return Number(row?.n ?? 0);
    },
    async list({ limit, requestId }) {
      const rows = requestId
        ? await sql.query<EmailRow>('SELECT * FROM email WHERE request_id = $1 ORDER BY created DESC, id LIMIT $2', [
            requestId,
            limit,
          ])
        : await sql.query<EmailRow>('SELECT * FROM email ORDER BY created DESC, id LIMIT $1', [limit]);
      return rows.map(toEmail);
    },
    async markDelivered(id, status, at) {
      await sql.query(
        "UPDATE email SET status = $2, sent_at = $3, attempts = attempts + 1, last_error = NULL WHERE id = $1 AND status = 'queued'",
        [id, status, at],
      );
    },
    async recordFailure(id, error) {
      await sql.query('UPDATE email SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [
        id,
        truncateGraphemes(error, 1000),
      ]);
    },
  };
}
