/**
 * The identity server answers for identities its keys signed on someone's behalf (signatures by
 * delegation): it finds them among the signature anchors by key and signed identity.
 */
export const sql = `
CREATE INDEX anchor_signed_identity_idx ON anchor (pub_key, signed_identity) WHERE signed_identity IS NOT NULL;
`;
