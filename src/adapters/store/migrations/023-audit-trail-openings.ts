/**
 * The openings of a sealed audit trail (format 2, core/signature-requests/audit-commitment.ts): the salt and the
 * value of each commitment, as JSON. Only the owner's export and a signer's own values are read from it; the
 * sealed JSON itself holds commitments only. Trails sealed before (format 1) have none and stay as sealed.
 */
export const sql = `
ALTER TABLE signature_request ADD COLUMN audit_trail_openings text;
`;
