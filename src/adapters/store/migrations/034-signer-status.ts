/**
 * A signer's status as data (issue 34): when it declined and why, and when the platform reminded it, are
 * columns of the signer, read with it by every view, instead of mail marks (`declined:<id>`, `reminded:<id>`)
 * that only some reads looked up. Existing marks are carried over (the decline's date and reason from its
 * SIGN_REFUSED event, as the views showed them) and removed.
 */
export const sql = `
ALTER TABLE signee ADD COLUMN declined_on bigint, ADD COLUMN decline_reason text, ADD COLUMN reminded_on bigint;
UPDATE signee s SET declined_on = e.date, decline_reason = e.comment
  FROM (SELECT DISTINCT ON (signee_id) signee_id, date, comment FROM signature_request_event
        WHERE type = 'SIGN_REFUSED' AND signee_id IS NOT NULL ORDER BY signee_id, id) e
  WHERE e.signee_id = s.id;
UPDATE signee s SET reminded_on = m.created
  FROM signature_request_mail_mark m WHERE m.key = 'reminded:' || s.id::text;
DELETE FROM signature_request_mail_mark WHERE key LIKE 'declined:%' OR key LIKE 'reminded:%';
`;
