import type { Anchor, MetadataValue } from './anchor.port.js';

/** The JSON form of an anchor (docs/bitcoin.md, "Anchors and receipts as the API shows them"); absent optional fields are left out. */
export interface AnchorView {
  id: string;
  created: number;
  lastModified: number;
  name: string;
  signedHash?: string;
  hash?: string;
  signature?: string;
  pubKey?: string;
  identityURL?: string;
  signedIdentity?: string;
  signedIssuerDomain?: string;
  public: boolean;
  tags: string[];
  metadata?: Record<string, MetadataValue>;
  callbackURL?: string;
  status: Anchor['status'];
  txId?: string;
  confirmations?: number;
  timestamp?: number;
}

/**
 * The same form everywhere (creation, GET, lists, callbacks), as Woleet's API: `hash` is what is
 * anchored (the receipt's `targetHash`) — a data anchor's hash, or the SHA-256 of a signature anchor's
 * signature — and a signature anchor also shows the hash that was signed as `signedHash`.
 */
export function anchorView(a: Anchor): AnchorView {
  const v: AnchorView = {
    id: a.id,
    created: a.created,
    lastModified: a.lastModified,
    name: a.name,
    public: a.public,
    tags: [...a.tags],
    status: a.status,
  };
  if (a.kind === 'signature') v.signedHash = a.hash;
  v.hash = a.leaf.toString('hex');
  if (a.signature !== null) v.signature = a.signature;
  if (a.pubKey !== null) v.pubKey = a.pubKey;
  if (a.identityUrl !== null) v.identityURL = a.identityUrl;
  if (a.signedIdentity !== null) v.signedIdentity = a.signedIdentity;
  if (a.signedIssuerDomain !== null) v.signedIssuerDomain = a.signedIssuerDomain;
  if (a.metadata !== null) v.metadata = { ...a.metadata };
  if (a.callbackUrl !== null) v.callbackURL = a.callbackUrl;
  if (a.txId !== null) v.txId = a.txId;
  if (a.status !== 'WAIT') v.confirmations = a.confirmations;
  if (a.timestamp !== null) v.timestamp = a.timestamp;
  return v;
}
