/**
 * The identity server's own tables.
 * - identity_key: a signing key of the identity server. `pub_key` is the key's address (what clients see
 *   as `pubKey`), `public_key` its compressed SEC key in hex; the secret key is kept only sealed with
 *   SECRET_KEY (`core/crypto/secret-box.ts`, purpose 'identity-key'). The identity fields are fixed at
 *   creation: a key that must say something else is a new key.
 * - identity_token: the bearer tokens of `/sign`, kept only as SHA-256 of the token.
 */
export const sql = `
CREATE TABLE identity_key (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  pub_key text NOT NULL UNIQUE,
  public_key text NOT NULL,
  private_key_sealed text NOT NULL,
  common_name text NOT NULL,
  organization text,
  organizational_unit text,
  locality text,
  country text,
  email_address text,
  expiration bigint,
  revoked_at bigint,
  created bigint NOT NULL
);
CREATE INDEX identity_key_created_idx ON identity_key (created DESC);

CREATE TABLE identity_token (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  created bigint NOT NULL,
  last_used bigint,
  revoked_at bigint
);
`;
