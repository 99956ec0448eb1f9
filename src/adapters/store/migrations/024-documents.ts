/**
 * The file to sign of a request (issue 22).
 * - `document_object`: a sealed file, named by a keyed hash of its SHA-256 (content-addressed, the hash not
 *   revealed); its chunks sit in `document_chunk` under the id of the write that made them, so a write is
 *   published in one statement (`INSERT … ON CONFLICT (name)`) and a refused or abandoned one simply dropped.
 * - `signature_request_document`: a request's reference to its file, with the name and type it is served with;
 *   `deleted` once the retention job removed the bytes (the proofs hold only the hash).
 * - `document_orphan`: objects a reference let go of (deleted, or replaced in a DRAFT), to be removed once
 *   no kept reference uses them.
 * - `signature_request.uploaded`: the spec's `isUploaded`, read with the request.
 */
export const sql = `
ALTER TABLE signature_request ADD COLUMN uploaded boolean NOT NULL DEFAULT false;

CREATE TABLE document_object (
  name text PRIMARY KEY,
  write_id uuid NOT NULL UNIQUE,
  salt bytea NOT NULL,
  size bigint NOT NULL CHECK (size > 0),
  chunk_bytes integer NOT NULL CHECK (chunk_bytes > 0),
  touched bigint NOT NULL
);

CREATE TABLE document_chunk (
  write_id uuid NOT NULL,
  seq integer NOT NULL,
  data bytea NOT NULL,
  written bigint NOT NULL,
  PRIMARY KEY (write_id, seq)
);

CREATE TABLE signature_request_document (
  request_id uuid PRIMARY KEY REFERENCES signature_request (id) ON DELETE CASCADE,
  object_name text NOT NULL,
  sha256 text NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  uploaded bigint NOT NULL,
  deleted bigint
);
CREATE INDEX signature_request_document_object_idx ON signature_request_document (object_name) WHERE deleted IS NULL;

CREATE TABLE document_orphan (
  object_name text PRIMARY KEY,
  since bigint NOT NULL
);
`;
