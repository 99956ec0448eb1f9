/** Callback attempts also record the signature request a message was about (anchors keep `anchor_id`). */
export const sql = `
ALTER TABLE callback_attempt ADD COLUMN signature_request_id uuid;
`;
