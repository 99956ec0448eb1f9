/**
 * Fixed-window counters of attempts (failed logins, wrong current passwords), shared by every process on
 * the store so that several API processes and the identity server enforce one limit. `key` is a hash of
 * what is counted (client address, login), so the table holds no personal data. A row whose window has
 * passed is reset by the next attempt on its key, or deleted by the maintenance job once expired.
 */
export const sql = `
CREATE TABLE attempt_counter (
  key text PRIMARY KEY,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX attempt_counter_expires_idx ON attempt_counter (expires_at);
`;
