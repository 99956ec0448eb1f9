/**
 * The transparency log (docs/transparency-log.md, issue 36).
 * - `tlog_state`: one row, locked by the sequencer: the log's size and how far the anchors are logged
 *   (`anchor_seq`: every anchor up to it is in the log, bar the log's own checkpoint seals).
 * - `tlog_pending`: signing events waiting for their index, written in the event's transaction.
 * - `tlog_tile`: the tiles of C2SP tlog-tiles, a row per tile (`level` 0 the leaf hashes), rewritten while
 *   partial; `tlog_bundle`: the entry bundles, likewise.
 * - `tlog_ref`: the index of an anchor's entry, by the anchor's id (a uuid key: cheaper to index than text).
 * - `tlog_checkpoint`: every signed checkpoint, the anchor that seals its root, and whether that anchor's
 *   receipt is in the log yet.
 * The anchors themselves are their own pending entries: an anchor's entry is made from its row (its
 * unchanging columns), so the insert that makes an anchor pays nothing for the log.
 */
export const sql = `
CREATE TABLE tlog_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  size bigint NOT NULL,
  anchor_seq bigint NOT NULL
);
INSERT INTO tlog_state (size, anchor_seq) VALUES (0, 0);
CREATE TABLE tlog_pending (
  id bigserial PRIMARY KEY,
  event text NOT NULL,
  request_id uuid NOT NULL,
  signee_id uuid,
  anchor_id uuid,
  at bigint NOT NULL
);
CREATE TABLE tlog_tile (
  level smallint NOT NULL,
  idx bigint NOT NULL,
  hashes bytea NOT NULL,
  PRIMARY KEY (level, idx)
);
CREATE TABLE tlog_bundle (
  idx bigint PRIMARY KEY,
  count smallint NOT NULL,
  entries bytea NOT NULL
);
CREATE TABLE tlog_ref (
  anchor_id uuid PRIMARY KEY,
  idx bigint NOT NULL
);
CREATE TABLE tlog_checkpoint (
  size bigint PRIMARY KEY,
  root bytea NOT NULL,
  note text NOT NULL,
  created bigint NOT NULL,
  anchor_id uuid,
  receipt_logged boolean NOT NULL DEFAULT false
);
CREATE INDEX tlog_checkpoint_unlogged_idx ON tlog_checkpoint (size) WHERE anchor_id IS NOT NULL AND NOT receipt_logged;
`;
