/**
 * The attestation PDF of a COMPLETED or CLOSED request, kept once made: it is produced when the proof bundle is
 * complete and never changes after (the same bytes are served and mailed). One row per request.
 */
export const sql = `
CREATE TABLE signature_request_attestation (
  request_id uuid PRIMARY KEY REFERENCES signature_request (id) ON DELETE CASCADE,
  pdf bytea NOT NULL,
  created bigint NOT NULL
);
`;
