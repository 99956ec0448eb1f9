/**
 * Less work for the store on every new anchor (docs/performance-log-archive.md, "Ingest per CPU second"). Each anchor
 * insert used to update seven indexes and run the account's foreign-key check; since batches own seq ranges
 * (migration 021) some of that indexed nothing any query reads.
 * - `anchor_batch_idx` keeps only the anchors of batches closed before ranges: new anchors keep `batch_id`
 *   NULL, and every query on it asks for one batch (`batch_id = ...`, which implies NOT NULL).
 * - `anchor_public_hash_idx` keeps only signature anchors: `?signedHash=` is the one filter on `hash`, and it
 *   asks for `kind = 'signature'`; a data anchor's hash is its leaf, found through `anchor_public_leaf_idx`.
 * - `anchor_seq_idx` on every anchor replaces `anchor_unbatched_idx` (`WHERE batch_id IS NULL`): the same
 *   cost per insert (new anchors were all in the partial one), and the reads of a batch's range by seq
 *   without a `batch_id` condition (the static receipts) are indexed too.
 * - The foreign key from `anchor.account_id` to `account` goes: its check, a query per inserted row, was a
 *   sixth of the store's CPU per anchor. An anchor's account is the authenticated caller's, which exists,
 *   and accounts are never deleted (a deletion would have to decide what becomes of their anchors anyway).
 */
export const sql = `
DROP INDEX anchor_batch_idx;
CREATE INDEX anchor_batch_idx ON anchor (batch_id, leaf_index) WHERE batch_id IS NOT NULL;
DROP INDEX anchor_public_hash_idx;
CREATE INDEX anchor_public_hash_idx ON anchor (hash) WHERE public AND kind = 'signature';
CREATE INDEX anchor_seq_idx ON anchor (seq);
DROP INDEX anchor_unbatched_idx;
ALTER TABLE anchor DROP CONSTRAINT anchor_account_id_fkey;
`;
