/**
 * One-time passwords (only their keyed hash) and the SMS outbox. A code row is tried against its
 * latest version for a signer; `wrong_tries` is reserved before a comparison, so parallel guesses
 * never get more than the allowed tries. An SMS row is the message to deliver: its body is sealed
 * (AES-GCM under SECRET_KEY: it carries a code) and erased once delivered or no longer useful.
 */
export const sql = `
CREATE TABLE otp (
  id uuid PRIMARY KEY,
  signer_key text NOT NULL,
  phone text NOT NULL,
  code_hash text NOT NULL,
  created bigint NOT NULL,
  expires bigint NOT NULL,
  wrong_tries integer NOT NULL DEFAULT 0,
  consumed boolean NOT NULL DEFAULT false
);
CREATE INDEX otp_signer_idx ON otp (signer_key, created DESC);
CREATE INDEX otp_phone_idx ON otp (phone, created DESC);

CREATE TABLE sms (
  id uuid PRIMARY KEY,
  to_phone text NOT NULL,
  sender_name text NOT NULL,
  body_sealed text,
  purpose text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  provider_id text,
  sender text,
  last_error text,
  created bigint NOT NULL,
  not_after bigint,
  sent bigint
);
CREATE INDEX sms_created_idx ON sms (created DESC);
`;
