/**
 * Anchors and the batches that carry them into Bitcoin.
 * - An anchor's status is derived, not stored: WAIT while it has no batch or its batch is WAIT; otherwise
 *   its batch's status (SENT, CONFIRMED). One batch update moves all its anchors at once.
 * - A batch keeps its Merkle tree once (`tree`, the serialised levels, stored uncompressed out of line
 *   so a receipt reads only the log2(n) nodes it needs with substring()); each anchor keeps its
 *   `leaf_index` in that tree.
 */
export const sql = `
CREATE TABLE batch (
  id uuid PRIMARY KEY,
  status text NOT NULL DEFAULT 'WAIT' CHECK (status IN ('WAIT', 'SENT', 'CONFIRMED')),
  root bytea NOT NULL,
  leaf_count integer NOT NULL,
  tree bytea NOT NULL,
  tx_id text,
  block_hash text,
  block_height integer,
  block_time bigint,
  confirmations integer NOT NULL DEFAULT 0,
  raw_tx text,
  tx_merkle_branch jsonb,
  created bigint NOT NULL,
  last_modified bigint NOT NULL
);
ALTER TABLE batch ALTER COLUMN tree SET STORAGE EXTERNAL;
CREATE INDEX batch_open_idx ON batch (status) WHERE status <> 'CONFIRMED';

CREATE TABLE anchor (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  account_id uuid NOT NULL REFERENCES account (id),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('signature', 'data')),
  hash text NOT NULL,
  signature text,
  pub_key text,
  identity_url text,
  signed_identity text,
  signed_issuer_domain text,
  leaf bytea NOT NULL,
  public boolean NOT NULL DEFAULT true,
  tags text[] NOT NULL DEFAULT '{}',
  metadata jsonb,
  callback_url text,
  batch_id uuid REFERENCES batch (id),
  leaf_index integer,
  created bigint NOT NULL,
  last_modified bigint NOT NULL
);
CREATE INDEX anchor_unbatched_idx ON anchor (seq) WHERE batch_id IS NULL;
CREATE INDEX anchor_public_hash_idx ON anchor (hash) WHERE public;
CREATE INDEX anchor_account_idx ON anchor (account_id, created DESC);
CREATE INDEX anchor_batch_idx ON anchor (batch_id, leaf_index);
`;
