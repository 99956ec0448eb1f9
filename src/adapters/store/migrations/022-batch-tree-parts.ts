/**
 * A batch's tree without its leaf level, in parts (core/merkle/batch-tree.ts, core/merkle/blinding.ts).
 * - `tree_key`: the batch's secret blinding key. Each anchor's sibling in the leaf level is derived from it
 *   (AES-256-CTR over the position), so the leaf level is never stored; it is read only to build a receipt's
 *   first step and is never served.
 * - `batch_tree_part`: the levels from level 1 to the root, cut into parts of 65,536 nodes (2 MB), stored
 *   uncompressed out of line so a receipt reads only the nodes of its path with substring(). No statement
 *   moves more than one part, which keeps the embedded store's WASM heap small.
 * Batches closed before keep their whole serialised tree in `tree` (and no key); `tree` may now be NULL.
 */
export const sql = `
ALTER TABLE batch ALTER COLUMN tree DROP NOT NULL, ADD COLUMN tree_key bytea;
CREATE TABLE batch_tree_part (
  batch_id uuid NOT NULL REFERENCES batch (id) ON DELETE CASCADE,
  part integer NOT NULL,
  nodes bytea NOT NULL,
  PRIMARY KEY (batch_id, part)
);
ALTER TABLE batch_tree_part ALTER COLUMN nodes SET STORAGE EXTERNAL;
`;
