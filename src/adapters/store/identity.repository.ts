import type {
  IdentityKey,
  IdentityKeyRepository,
  IdentityToken,
  IdentityTokenRepository,
  KeyIdentity,
} from '../../app/identity/identity.port.js';
import type { Sql } from './sql.js';

interface KeyRow {
  id: string;
  name: string;
  pub_key: string;
  public_key: string;
  private_key_sealed: string;
  common_name: string;
  organization: string | null;
  organizational_unit: string | null;
  locality: string | null;
  country: string | null;
  email_address: string | null;
  expiration: number | null;
  revoked_at: number | null;
  created: number;
}
interface TokenRow {
  id: string;
  name: string;
  created: number;
  last_used: number | null;
  revoked_at: number | null;
}

const toKey = (r: KeyRow): IdentityKey => ({
  id: r.id,
  name: r.name,
  pubKey: r.pub_key,
  publicKey: r.public_key,
  privateKeySealed: r.private_key_sealed,
  identity: identityOf(r),
  expiration: r.expiration,
  revokedAt: r.revoked_at,
  created: r.created,
});
/** Absent identity fields are NULL in the table and left out of the object. */
function identityOf(r: KeyRow): KeyIdentity {
  return {
    commonName: r.common_name,
    ...(r.organization !== null && { organization: r.organization }),
    ...(r.organizational_unit !== null && { organizationalUnit: r.organizational_unit }),
    ...(r.locality !== null && { locality: r.locality }),
    ...(r.country !== null && { country: r.country }),
    ...(r.email_address !== null && { emailAddress: r.email_address }),
  };
}

const toToken = (r: TokenRow): IdentityToken => ({
  id: r.id,
  name: r.name,
  created: r.created,
  lastUsed: r.last_used,
  revokedAt: r.revoked_at,
});

export function identityKeyRepository(sql: Sql): IdentityKeyRepository {
  return {
    async insert(k) {
      const i = k.identity;
      const rows = await sql.query(
        `INSERT INTO identity_key (id, name, pub_key, public_key, private_key_sealed, common_name, organization,
           organizational_unit, locality, country, email_address, expiration, revoked_at, created)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) ON CONFLICT DO NOTHING RETURNING id`,
        [
          k.id,
          k.name,
          k.pubKey,
          k.publicKey,
          k.privateKeySealed,
          i.commonName,
          i.organization ?? null,
          i.organizationalUnit ?? null,
          i.locality ?? null,
          i.country ?? null,
          i.emailAddress ?? null,
          k.expiration,
          k.revokedAt,
          k.created,
        ],
      );
      return rows.length === 1;
    },
    async findByPubKey(pubKey) {
      const rows = await sql.query<KeyRow>('SELECT * FROM identity_key WHERE pub_key = $1', [pubKey]);
      return rows[0] ? toKey(rows[0]) : null;
    },
    async findNewestLive(now) {
      const rows = await sql.query<KeyRow>(
        `SELECT * FROM identity_key WHERE revoked_at IS NULL AND (expiration IS NULL OR expiration > $1)
         ORDER BY created DESC, id LIMIT 1`,
        [now],
      );
      return rows[0] ? toKey(rows[0]) : null;
    },
    async hasSignedFor(pubKey, signedIdentity) {
      const rows = await sql.query(
        `SELECT 1 FROM anchor WHERE pub_key = $1 AND signed_identity = $2 AND kind = 'signature' LIMIT 1`,
        [pubKey, signedIdentity],
      );
      return rows.length > 0;
    },
    async list() {
      return (await sql.query<KeyRow>('SELECT * FROM identity_key ORDER BY created DESC, id')).map(toKey);
    },
    async count() {
      const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM identity_key');
      return rows[0]!.n;
    },
    async revoke(pubKey, now) {
      const rows = await sql.query(
        'UPDATE identity_key SET revoked_at = $2 WHERE pub_key = $1 AND revoked_at IS NULL RETURNING id',
        [pubKey, now],
      );
      return rows.length > 0;
    },
  };
}

export function identityTokenRepository(sql: Sql): IdentityTokenRepository {
  return {
    async insert(t, tokenHash) {
      await sql.query('INSERT INTO identity_token (id, token_hash, name, created) VALUES ($1,$2,$3,$4)', [
        t.id,
        tokenHash,
        t.name,
        t.created,
      ]);
    },
    async findLiveByHash(tokenHash) {
      const rows = await sql.query<TokenRow>(
        'SELECT * FROM identity_token WHERE token_hash = $1 AND revoked_at IS NULL',
        [tokenHash],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    async list() {
      return (await sql.query<TokenRow>('SELECT * FROM identity_token ORDER BY created, id')).map(toToken);
    },
    async revoke(match, now) {
      const rows = await sql.query(
        `UPDATE identity_token SET revoked_at = $3
         WHERE (token_hash = $1 OR id::text = $2) AND revoked_at IS NULL RETURNING id`,
        [match.tokenHash ?? null, match.id ?? null, now],
      );
      return rows.length > 0;
    },
    async touch(id, now) {
      await sql.query(
        'UPDATE identity_token SET last_used = $2 WHERE id = $1 AND (last_used IS NULL OR last_used < $2::bigint - 60000)',
        [id, now],
      );
    },
  };
}
