/**
 * The e-mail outbox. A mail is a row written in the transaction of the event that causes it, then delivered
 * by a job that carries only its id. `status`: queued → sent (accepted by the SMTP server) or stored (the
 * default run, with no SMTP server: kept here and as an .eml file); `attempts`/`last_error` record failures.
 * `message_id` is fixed at queueing, so a mail sent again after a crash keeps its Message-ID.
 */
export const sql = `
CREATE TABLE email (
  id uuid PRIMARY KEY,
  message_id text NOT NULL UNIQUE,
  account_id uuid REFERENCES account (id) ON DELETE CASCADE,
  request_id uuid,
  type text NOT NULL,
  from_name text NOT NULL,
  from_address text NOT NULL,
  to_name text NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  attachments jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL CHECK (status IN ('queued', 'sent', 'stored', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created bigint NOT NULL,
  sent_at bigint
);
CREATE INDEX email_created_idx ON email (created DESC);
CREATE INDEX email_request_idx ON email (request_id, created);
`;
