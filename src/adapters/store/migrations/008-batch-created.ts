/** `/ready` reports when the last batch was closed: find it without reading every batch. */
export const sql = `
CREATE INDEX batch_created_idx ON batch (created);
`;
