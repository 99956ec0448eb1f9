import type { OtpRecord, OtpRepository } from '../../app/signature-requests/otp/otp.port.js';
import type { Sql } from './sql.js';

interface OtpRow {
  id: string;
  signer_key: string;
  phone: string;
  code_hash: string;
  created: number;
  expires: number;
  wrong_tries: number;
  consumed: boolean;
}

interface WindowRow {
  count: number;
  oldest: number | null;
}

function toRecord(r: OtpRow): OtpRecord {
  return {
    id: r.id,
    signerKey: r.signer_key,
    phone: r.phone,
    codeHash: r.code_hash,
    created: r.created,
    expires: r.expires,
    wrongTries: r.wrong_tries,
    consumed: r.consumed,
  };
}

async function windowCount(sql: Sql, column: 'signer_key' | 'phone', value: string, since: number) {
  const [row] = await sql.query<WindowRow>(
    `SELECT count(*)::int AS count, min(created) AS oldest FROM otp WHERE ${column} = $1 AND created > $2`,
    [value, since],
  );
  return { count: row?.count ?? 0, oldest: row?.oldest ?? undefined };
}

export function otpRepository(sql: Sql): OtpRepository {
  return {
    async lockSigner(signerKey) {
      await sql.query("SELECT pg_advisory_xact_lock(hashtextextended('otp:' || $1, 0))", [signerKey]);
    },
    async insert(o) {
      await sql.query(
        `INSERT INTO otp (id, signer_key, phone, code_hash, created, expires, wrong_tries, consumed)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
        [o.id, o.signerKey, o.phone, o.codeHash, o.created, o.expires, o.wrongTries, o.consumed],
      );
    },
    async latestFor(signerKey) {
      const rows = await sql.query<OtpRow>(
        'SELECT * FROM otp WHERE signer_key = $1 ORDER BY created DESC, id DESC LIMIT 1',
        [signerKey],
      );
      return rows[0] && toRecord(rows[0]);
    },
    countForSigner: (signerKey, since) => windowCount(sql, 'signer_key', signerKey, since),
    countForPhone: (phone, since) => windowCount(sql, 'phone', phone, since),
    async reserveTry(id, max) {
      const rows = await sql.query<{ wrong_tries: number }>(
        'UPDATE otp SET wrong_tries = wrong_tries + 1 WHERE id = $1 AND wrong_tries < $2 RETURNING wrong_tries',
        [id, max],
      );
      return rows[0]?.wrong_tries;
    },
    async releaseTry(id) {
      await sql.query('UPDATE otp SET wrong_tries = wrong_tries - 1 WHERE id = $1 AND wrong_tries > 0', [id]);
    },
    async consume(id) {
      const rows = await sql.query('UPDATE otp SET consumed = true WHERE id = $1 AND NOT consumed RETURNING id', [id]);
      return rows.length === 1;
    },
  };
}
