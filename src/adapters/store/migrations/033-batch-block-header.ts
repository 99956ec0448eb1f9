/**
 * The 80-byte header of the block that confirmed a batch's transaction, hex, stored beside the rest of the SPV
 * data at the first confirmation (issue 31): a proof bundle is then complete on every process of every role
 * split, with or without a node of its own. Null for batches confirmed before this migration until a worker
 * reads it from its node (`fillBlockHeaders`), and whenever the block data are null.
 */
export const sql = `
ALTER TABLE batch ADD COLUMN block_header text;
CREATE INDEX batch_without_header ON batch (block_height) WHERE block_hash IS NOT NULL AND block_header IS NULL;
`;
