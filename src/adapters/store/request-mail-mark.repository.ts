import type { RequestMailMarkRepository, SignerRef } from '../../app/signature-requests/request-mail.port.js';
import { MAIL_MARK_PREFIX, type MailMark } from '../../core/signature-requests/mail-marks.js';
import type { Sql } from './sql.js';

interface RefRow {
  request_id: string;
  signer_id: string;
}

const toRef = (r: RefRow): SignerRef => ({ requestId: r.request_id, signerId: r.signer_id });

/**
 * `isMarked`, with the keys asked in the same turn of the event loop read in one statement: a request's mails
 * ask for each signer's invitation mark. The read leaves when that turn's microtasks have run, so a mark written in the same turn
 * before it was asked is seen, as the answers of reads asked after a write always were.
 */
function markedReads(sql: Sql): (key: MailMark) => Promise<boolean> {
  let asked: { key: string; answer: (read: Promise<Set<string>>) => void }[] = [];
  const read = async (keys: string[]): Promise<Set<string>> => {
    const rows =
      keys.length === 1
        ? await sql.query<{ key: string }>('SELECT key FROM signature_request_mail_mark WHERE key = $1', keys)
        : await sql.query<{ key: string }>('SELECT key FROM signature_request_mail_mark WHERE key = ANY($1::text[])', [
            keys,
          ]);
    return new Set(rows.map((r) => r.key));
  };
  return (key) =>
    new Promise<Set<string>>((resolve) => {
      asked.push({ key, answer: resolve });
      if (asked.length > 1) return;
      queueMicrotask(() => {
        const all = asked;
        asked = [];
        const marked = read([...new Set(all.map((a) => a.key))]);
        for (const a of all) a.answer(marked);
      });
    }).then((marked) => marked.has(key));
}

/** Marks of the request mail flow (migration 016), one row per moment, written once. */
export function requestMailMarkRepository(sql: Sql): RequestMailMarkRepository {
  return {
    async mark(key, ref, now) {
      const rows = await sql.query(
        `INSERT INTO signature_request_mail_mark (key, request_id, signee_id, created) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO NOTHING RETURNING key`,
        [key, ref.requestId, ref.signerId ?? null, now],
      );
      return rows.length > 0;
    },
    isMarked: markedReads(sql),
    async dueReminders(invitedBy, limit) {
      const rows = await sql.query<RefRow>(
        `SELECT s.request_id, s.id AS signer_id FROM signee s
           JOIN signature_request r ON r.id = s.request_id AND r.state = 'IN_PROGRESS'
           JOIN signature_request_mail_mark i ON i.key = $3 || s.id::text
         WHERE s.signed_on IS NULL AND s.declined_on IS NULL AND s.reminded_on IS NULL AND s.email IS NOT NULL
           AND i.created <= $1
         ORDER BY i.created LIMIT $2`,
        [invitedBy, limit, MAIL_MARK_PREFIX.invited],
      );
      return rows.map(toRef);
    },
    async dueProofMails(limit) {
      const rows = await sql.query<RefRow>(
        `SELECT s.request_id, s.id AS signer_id FROM signee s
           JOIN anchor_batch ab ON ab.anchor_id = s.anchor_id JOIN batch b ON b.id = ab.batch_id AND b.status = 'CONFIRMED'
         WHERE s.email IS NOT NULL AND s.anchor_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM signature_request_mail_mark m WHERE m.key = $2 || s.id::text)
         ORDER BY s.signed_on LIMIT $1`,
        [limit, MAIL_MARK_PREFIX.proofConfirmed],
      );
      return rows.map(toRef);
    },
    async dueDeadlineWarnings(now, within, limit) {
      const rows = await sql.query<{ id: string; deadline: string | number }>(
        `SELECT r.id, r.deadline FROM signature_request r
         WHERE r.state = 'IN_PROGRESS' AND r.deadline IS NOT NULL AND r.deadline > $1 AND r.deadline <= $2
           AND NOT EXISTS (SELECT 1 FROM signature_request_mail_mark m
                           WHERE m.key = $4 || r.id::text || ':' || r.deadline::text)
         ORDER BY r.deadline LIMIT $3`,
        [now, now + within, limit, MAIL_MARK_PREFIX.deadlineWarning],
      );
      return rows.map((r) => ({ requestId: r.id, deadline: Number(r.deadline) }));
    },
  };
}
