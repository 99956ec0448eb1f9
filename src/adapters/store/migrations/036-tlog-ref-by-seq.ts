/**
 * The transparency log, cheaper to append to and published to the object store (docs/transparency-log.md):
 * - `tlog_ref` is keyed by the anchor's `seq` instead of its id: the sequencer appends anchors in seq order,
 *   so each run's refs go to the right end of a bigint index (a uuid key put each one on a random page of
 *   its index: a few times the cost). An anchor's index is found through its row (`anchor.id` → `seq`).
 * - `tlog_published`: how far the log's tiles are written to the object store (STATIC_RECEIPTS_URL): every
 *   full tile and entry bundle of a log of `size` entries is there, and the checkpoint of that size.
 */
export const sql = `
CREATE TABLE tlog_ref_seq (
  seq bigint PRIMARY KEY,
  idx bigint NOT NULL
);
INSERT INTO tlog_ref_seq (seq, idx) SELECT a.seq, r.idx FROM tlog_ref r JOIN anchor a ON a.id = r.anchor_id;
DROP TABLE tlog_ref;
ALTER TABLE tlog_ref_seq RENAME TO tlog_ref;
ALTER INDEX tlog_ref_seq_pkey RENAME TO tlog_ref_pkey;
CREATE TABLE tlog_published (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  size bigint NOT NULL
);
INSERT INTO tlog_published (size) VALUES (0);
`;
