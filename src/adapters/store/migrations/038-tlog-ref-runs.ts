/**
 * The transparency log, cheaper to append to (docs/transparency-log.md "What it costs"):
 * - `tlog_ref_run` replaces `tlog_ref` (a row per logged anchor): a row per stretch of anchors whose seqs and
 *   indexes both follow one another (`seq_from`..`seq_to` at `idx_from`..). The sequencer logs the anchors of a
 *   run in seq order, one after another, so a run of 20,000 anchors is one row where it was 20,000 (a stretch ends
 *   only at a hole in the seqs: an insert rolled back, or one of the log's own checkpoint seals). An anchor's index
 *   is `idx_from + seq - seq_from` of the last stretch starting at or before its seq, if the stretch reaches it.
 *   The refs already kept are carried over, grouped into their stretches.
 * - `tlog_bundle.entries` is compressed with lz4 where the server has it (PostgreSQL built with lz4, as Debian's
 *   packages are; PGlite has pglz only): measured on this kind of machine, writing a bundle cost the backend
 *   7.4–7.7 µs of CPU an entry with pglz, 1.0–1.6 µs with lz4 and 1.2–1.6 µs stored plain, for 15.2, 15.0 and
 *   32.6 MB on disk (300 bundles of 256 signature anchors' entries, three rounds). Bundles written before keep
 *   pglz until they are rewritten; PostgreSQL reads both. (The tiles are left as they are: 8 KB of hashes cost the
 *   same 0.2 µs an entry with pglz, lz4 or none, pglz giving up on them early.)
 */
export const sql = `
CREATE TABLE tlog_ref_run (
  seq_from bigint PRIMARY KEY,
  seq_to bigint NOT NULL,
  idx_from bigint NOT NULL,
  CHECK (seq_to >= seq_from)
);
INSERT INTO tlog_ref_run (seq_from, seq_to, idx_from)
  SELECT min(seq), max(seq), min(idx)
  FROM (SELECT seq, idx, seq - row_number() OVER (ORDER BY seq) AS s, idx - row_number() OVER (ORDER BY seq) AS i
        FROM tlog_ref) r
  GROUP BY s, i;
DROP TABLE tlog_ref;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE tlog_bundle ALTER COLUMN entries SET COMPRESSION lz4;
  END IF;
END
$$;
`;
