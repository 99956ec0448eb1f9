/**
 * The signed copy of a request's uploaded PDF, kept once made (docs/attestation.md): only the bytes that follow
 * the original's (the appended attestation, the attached proof bundle, the PAdES signature), since the original
 * stays in the document store and is the signed copy's first bytes. Or the reason none can be made (a PDF that
 * cannot take an update), so it is not tried again. One row per request.
 */
export const sql = `
CREATE TABLE signature_request_signed_copy (
  request_id uuid PRIMARY KEY REFERENCES signature_request (id) ON DELETE CASCADE,
  original_sha256 text NOT NULL,
  suffix bytea,
  sha256 text,
  size bigint,
  refusal text,
  created bigint NOT NULL,
  CHECK ((suffix IS NULL) = (refusal IS NOT NULL))
);
`;
