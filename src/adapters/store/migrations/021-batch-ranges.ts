/**
 * A batch owns a range of anchor sequence numbers instead of every anchor row pointing at it: closing a
 * batch writes one batch row, not a million anchor rows again.
 * - `first_seq`, `last_seq`: the first and last anchor of the batch (by `seq`). Ranges of successive batches
 *   follow each other; an anchor whose `batch_id` is NULL belongs to the batch whose range holds its `seq`,
 *   at leaf position `2 * (seq - first_seq)` of the blinded tree (a `seq` with no anchor — a rolled-back
 *   insert — holds a random leaf). Batches closed before this migration keep `batch_id`/`leaf_index` on
 *   their anchors and have no range.
 * - `settled`: the batch is CONFIRMED and its block has left the reorg watch: its receipts can no longer
 *   change, so an API process may keep them in memory and clients may cache them.
 * - `anchor_batch`: the one definition of "the anchor's batch", for reports and tests.
 */
export const sql = `
ALTER TABLE batch ADD COLUMN first_seq bigint, ADD COLUMN last_seq bigint, ADD COLUMN settled boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX batch_last_seq_idx ON batch (last_seq) WHERE last_seq IS NOT NULL;
CREATE INDEX anchor_callback_seq_idx ON anchor (seq) WHERE callback_url IS NOT NULL;
CREATE VIEW anchor_batch AS
  SELECT a.id AS anchor_id, a.seq, b.id AS batch_id, COALESCE(a.leaf_index, 2 * (a.seq - b.first_seq))::int AS leaf_index
  FROM anchor a
  JOIN batch b ON b.id = COALESCE(a.batch_id, (SELECT r.id FROM batch r WHERE r.last_seq >= a.seq ORDER BY r.last_seq LIMIT 1))
  WHERE a.batch_id IS NOT NULL OR b.first_seq <= a.seq;
`;
