/**
 * The index of each signing event's entry in the transparency log, by request (docs/transparency-log.md "In the
 * proof bundle"): written by the sequencer in the transaction that appends the entry, read by the proof bundle,
 * which proves a request's events beside its anchors. `anchor_id` is the signature's anchor of a SIGNED event
 * (null otherwise): the bundle proves such an event only together with that anchor's entry.
 * Events logged before this migration have no row: they are in the log (a monitor finds them), not in bundles.
 */
export const sql = `
CREATE TABLE tlog_event_ref (
  request_id uuid NOT NULL,
  idx bigint NOT NULL,
  anchor_id uuid,
  PRIMARY KEY (request_id, idx)
);
`;
