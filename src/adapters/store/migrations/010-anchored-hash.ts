/**
 * `?hash=` on `/v1/anchorids` matches the anchored hash — the leaf: a data anchor's hash, the SHA-256 of
 * a signature anchor's signature — no longer the signed hash, so public anchors are looked up by leaf.
 * `anchor_public_hash_idx` stays for `?signedHash=`.
 */
export const sql = `
CREATE INDEX anchor_public_leaf_idx ON anchor (leaf) WHERE public;
`;
