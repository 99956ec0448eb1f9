/** CONFIRMED batches are watched for deep reorgs while their block is recent: find them by height. */
export const sql = `
CREATE INDEX batch_confirmed_height_idx ON batch (block_height) WHERE status = 'CONFIRMED';
`;
