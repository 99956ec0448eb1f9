/**
 * The RFC 3161 time-stamp tokens of a completed proof bundle (docs/attestation.md, `rfc3161Timestamps`): JSON,
 * kept once when the bundle completes with TSA_URLS set; null before, without a TSA, and on older bundles.
 */
export const sql = `
ALTER TABLE signature_request ADD COLUMN rfc3161_timestamps text;
`;
