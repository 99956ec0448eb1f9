export const sql = `
CREATE TABLE account (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  callback_secret_sealed text,
  created bigint NOT NULL,
  last_modified bigint NOT NULL
);
CREATE UNIQUE INDEX account_email_key ON account (lower(email));

CREATE TABLE api_token (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  created bigint NOT NULL,
  last_used bigint,
  revoked_at bigint
);
CREATE INDEX api_token_account_idx ON api_token (account_id);

CREATE TABLE setting (
  key text PRIMARY KEY,
  value text NOT NULL,
  last_modified bigint NOT NULL
);
`;
