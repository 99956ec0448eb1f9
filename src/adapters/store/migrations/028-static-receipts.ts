/**
 * Static settled receipts (STATIC_RECEIPTS_URL): `static_receipts_through` is the highest anchor `seq` of a
 * settled batch whose receipt was written to the object store (NULL: none yet). The receipts of a batch are
 * written in `seq` order, so every anchor of the batch up to it has its static receipt.
 */
export const sql = `
ALTER TABLE batch ADD COLUMN static_receipts_through bigint;
`;
