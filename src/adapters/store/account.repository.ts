import type {
  Account,
  AccountRepository,
  ApiToken,
  SettingRepository,
  TokenRepository,
} from '../../app/accounts/account.port.js';
import type { Sql } from './sql.js';

export interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  callback_secret_sealed: string | null;
  created: number;
  last_modified: number;
}
interface TokenRow {
  id: string;
  account_id: string;
  name: string;
  created: number;
  last_used: number | null;
  revoked_at: number | null;
}

/** An account row (also as JSON: its bigints are numbers either way). */
export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  firstName: r.first_name,
  lastName: r.last_name,
  callbackSecretSealed: r.callback_secret_sealed,
  created: r.created,
  lastModified: r.last_modified,
});
const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  created: r.created,
  lastUsed: r.last_used,
  revokedAt: r.revoked_at,
});

export function accountRepository(sql: Sql): AccountRepository {
  return {
    async insert(a) {
      const rows = await sql.query(
        `INSERT INTO account (id, email, password_hash, first_name, last_name, callback_secret_sealed, created, last_modified)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT DO NOTHING RETURNING id`,
        [a.id, a.email, a.passwordHash, a.firstName, a.lastName, a.callbackSecretSealed, a.created, a.lastModified],
      );
      return rows.length === 1;
    },
    async findById(id) {
      const rows = await sql.query<AccountRow>('SELECT * FROM account WHERE id = $1', [id]);
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async findByEmail(email) {
      const rows = await sql.query<AccountRow>('SELECT * FROM account WHERE lower(email) = lower($1)', [email]);
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async setCallbackSecret(id, sealed, now) {
      await sql.query('UPDATE account SET callback_secret_sealed = $2, last_modified = $3 WHERE id = $1', [
        id,
        sealed,
        now,
      ]);
    },
    async setNames(id, firstName, lastName, now) {
      await sql.query('UPDATE account SET first_name = $2, last_name = $3, last_modified = $4 WHERE id = $1', [
        id,
        firstName,
        lastName,
        now,
      ]);
    },
    async setCallbackSecretIfAbsent(id, sealed, now) {
      await sql.query(
        'UPDATE account SET callback_secret_sealed = $2, last_modified = $3 WHERE id = $1 AND callback_secret_sealed IS NULL',
        [id, sealed, now],
      );
      const rows = await sql.query<{ s: string }>('SELECT callback_secret_sealed AS s FROM account WHERE id = $1', [
        id,
      ]);
      return rows[0]!.s;
    },
    async setPassword(id, passwordHash, now) {
      await sql.query('UPDATE account SET password_hash = $2, last_modified = $3 WHERE id = $1', [
        id,
        passwordHash,
        now,
      ]);
    },
  };
}

export function tokenRepository(sql: Sql): TokenRepository {
  return {
    async insert(t, tokenHash) {
      await sql.query('INSERT INTO api_token (id, account_id, token_hash, name, created) VALUES ($1,$2,$3,$4,$5)', [
        t.id,
        t.accountId,
        tokenHash,
        t.name,
        t.created,
      ]);
    },
    async findLiveByHash(tokenHash) {
      const rows = await sql.query<TokenRow>('SELECT * FROM api_token WHERE token_hash = $1 AND revoked_at IS NULL', [
        tokenHash,
      ]);
      return rows[0] ? toToken(rows[0]) : null;
    },
    async findLiveWithAccount(tokenHash) {
      const rows = await sql.query<TokenRow & { a: AccountRow }>(
        `SELECT t.*, row_to_json(a) AS a FROM api_token t JOIN account a ON a.id = t.account_id
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
        [tokenHash],
      );
      const r = rows[0];
      return r ? { token: toToken(r), account: toAccount(r.a) } : null;
    },
    async listByAccount(accountId) {
      const rows = await sql.query<TokenRow>('SELECT * FROM api_token WHERE account_id = $1 ORDER BY created, id', [
        accountId,
      ]);
      return rows.map(toToken);
    },
    async revoke(accountId, match, now) {
      const rows = await sql.query(
        `UPDATE api_token SET revoked_at = $4
         WHERE ($1::uuid IS NULL OR account_id = $1) AND (token_hash = $2 OR id::text = $3) AND revoked_at IS NULL
         RETURNING id`,
        [accountId, match.tokenHash ?? null, match.id ?? null, now],
      );
      return rows.length > 0;
    },
    async touch(id, now) {
      await sql.query(
        'UPDATE api_token SET last_used = $2 WHERE id = $1 AND (last_used IS NULL OR last_used < $2::bigint - 60000)',
        [id, now],
      );
    },
    async purgeRevoked(before) {
      return (await sql.query('DELETE FROM api_token WHERE revoked_at < $1 RETURNING id', [before])).length;
    },
  };
}

export function settingRepository(sql: Sql): SettingRepository {
  return {
    async get(key) {
      const rows = await sql.query<{ value: string }>('SELECT value FROM setting WHERE key = $1', [key]);
      return rows[0]?.value ?? null;
    },
    async putIfAbsent(key, value, now) {
      await sql.query(
        'INSERT INTO setting (key, value, last_modified) VALUES ($1,$2,$3) ON CONFLICT (key) DO NOTHING',
        [key, value, now],
      );
      const rows = await sql.query<{ value: string }>('SELECT value FROM setting WHERE key = $1', [key]);
      return rows[0]!.value;
    },
    async put(key, value, now) {
      await sql.query(
        'INSERT INTO setting (key, value, last_modified) VALUES ($1,$2,$3) ON CONFLICT (key) DO UPDATE SET value = $2, last_modified = $3',
        [key, value, now],
      );
    },
  };
}
