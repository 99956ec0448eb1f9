/**
 * Static receipts of every confirmed batch, named by anchor and transaction: `static_receipts_tx` is the
 * transaction the batch's static receipts up to `static_receipts_through` were written for; when the batch
 * is put into another transaction (a reorg), they are written again under the new names. The names of
 * migration 028's objects (by anchor alone) are no longer asked for, so every batch starts again.
 */
export const sql = `
ALTER TABLE batch ADD COLUMN static_receipts_tx text;
UPDATE batch SET static_receipts_through = NULL;
`;
