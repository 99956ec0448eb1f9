/**
 * Where a reply to a mail goes (its Reply-To): the requester for the mails to signers and watchers, the signer
 * for a feedback mail. Null on older mails and on those without one.
 */
export const sql = `
ALTER TABLE email ADD COLUMN reply_to_name text, ADD COLUMN reply_to_address text;
`;
