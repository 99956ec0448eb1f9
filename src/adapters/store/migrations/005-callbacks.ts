/**
 * Every delivery attempt of a callback (anchor status changes), for the account's audit and for
 * operators. `message_id` is the Standard Webhooks `webhook-id`, the same across retries.
 */
export const sql = `
CREATE TABLE callback_attempt (
  id uuid PRIMARY KEY,
  message_id text NOT NULL,
  account_id uuid NOT NULL REFERENCES account (id) ON DELETE CASCADE,
  anchor_id uuid,
  url text NOT NULL,
  attempt integer NOT NULL,
  status integer,
  error text,
  duration_ms integer NOT NULL,
  created bigint NOT NULL
);
CREATE INDEX callback_attempt_message_idx ON callback_attempt (message_id, attempt);
CREATE INDEX callback_attempt_account_idx ON callback_attempt (account_id, created DESC);
`;
