/**
 * Signature requests, their signers, watchers and audit events.
 * - A signer's secret `signeeId` is never stored: `secret_salt` lets the service derive it again from
 *   SECRET_KEY (for e-mails), `secret_hash` (a second keyed hash) finds the signer from it.
 * - Signing twice is impossible: `signed_on`/`anchor_id` are set together once (CHECK), by an UPDATE
 *   that requires `signed_on IS NULL` under the request's row lock, and an anchor signs for one signer only.
 * - The audit trail is append-only, ordered by `id`; once sealed its canonical JSON is kept as sealed.
 */
export const sql = `
CREATE TABLE signature_request (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES account (id),
  name text NOT NULL,
  hash_to_sign text NOT NULL,
  state text NOT NULL CHECK (state IN ('DRAFT', 'PENDING', 'IN_PROGRESS', 'COMPLETED', 'CLOSED', 'CANCELED', 'EXPIRED')),
  file_name text,
  file_url text,
  deadline bigint,
  activation bigint,
  lang text,
  ordered boolean NOT NULL DEFAULT false,
  public boolean NOT NULL DEFAULT true,
  callback_url text,
  identity_url text,
  vars jsonb,
  audit_trail_anchor_id uuid REFERENCES anchor (id),
  audit_trail_sealed text,
  proof_bundle_complete boolean NOT NULL DEFAULT false,
  sharing_token_hash bytea UNIQUE,
  created bigint NOT NULL,
  last_modified bigint NOT NULL
);
CREATE INDEX signature_request_account_idx ON signature_request (account_id, created DESC);
CREATE INDEX signature_request_hash_idx ON signature_request (account_id, hash_to_sign);
CREATE INDEX signature_request_activation_idx ON signature_request (activation) WHERE state = 'PENDING';
CREATE INDEX signature_request_deadline_idx ON signature_request (deadline) WHERE state = 'IN_PROGRESS';
CREATE INDEX signature_request_unsealed_idx ON signature_request (id)
  WHERE state IN ('COMPLETED', 'CLOSED') AND NOT proof_bundle_complete;

CREATE TABLE signee (
  id uuid PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES signature_request (id) ON DELETE CASCADE,
  position integer NOT NULL,
  common_name text NOT NULL,
  email text,
  country_calling_code text,
  phone text,
  requires_otp boolean NOT NULL DEFAULT false,
  vars jsonb,
  lang text,
  secret_salt bytea NOT NULL,
  secret_hash bytea NOT NULL UNIQUE,
  audit_trail_id text NOT NULL UNIQUE,
  viewed_on bigint,
  signed_on bigint,
  anchor_id uuid UNIQUE REFERENCES anchor (id),
  method text CHECK (method IN ('delegated', 'own-key')),
  UNIQUE (request_id, position),
  CHECK ((signed_on IS NULL) = (anchor_id IS NULL) AND (signed_on IS NULL) = (method IS NULL))
);

CREATE TABLE signature_request_watcher (
  request_id uuid NOT NULL REFERENCES signature_request (id) ON DELETE CASCADE,
  position integer NOT NULL,
  email text NOT NULL,
  common_name text,
  vars jsonb,
  lang text,
  PRIMARY KEY (request_id, position)
);

CREATE TABLE signature_request_event (
  id bigserial PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES signature_request (id) ON DELETE CASCADE,
  date bigint NOT NULL,
  type text NOT NULL,
  actor text,
  signee_id uuid,
  ip text,
  user_agent text,
  comment text
);
CREATE INDEX signature_request_event_request_idx ON signature_request_event (request_id, id);
`;
