/**
 * The queued mails of an account, counted when its next mail is queued (the delivery job's priority: an
 * account's backlog goes after other accounts' first mails). Partial: only the queued mails are indexed.
 */
export const sql = `
CREATE INDEX email_queued_account_idx ON email (account_id) WHERE status = 'queued';
`;
