/**
 * The moments of a signature request's mail flow that happen once: a signer invited (`invited:<signee>`),
 * reminded by the platform (`reminded:<signee>`), told its proof is confirmed (`proof:<signee>`), the
 * requester warned of a deadline (`expiring:<request>:<deadline>`). A mark is written in the transaction
 * that queues the mail, so a job run twice (or by two workers) finds it and sends nothing more.
 */
export const sql = `
CREATE TABLE signature_request_mail_mark (
  key text PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES signature_request (id) ON DELETE CASCADE,
  signee_id uuid,
  created bigint NOT NULL
);
CREATE INDEX signature_request_mail_mark_request_idx ON signature_request_mail_mark (request_id);
CREATE INDEX signee_unsigned_idx ON signee (request_id) WHERE signed_on IS NULL;
`;
