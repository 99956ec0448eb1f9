import type { ResidentLevels } from '../../core/cache/resident-levels.js';
/**
 * Anchors as the use cases see them. The status of an anchor is derived from its batch (WAIT while it
 * has none or its batch is WAIT), so one batch update moves all its anchors at once.
 */
export type AnchorStatus = 'WAIT' | 'SENT' | 'CONFIRMED';
export type AnchorKind = 'signature' | 'data';
export type MetadataValue = string | number | boolean | null;

/** What a creation writes; everything else (status, batch) comes later from the batching jobs. */
export interface NewAnchor {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly kind: AnchorKind;
  /** The signed hash (signature anchor) or the data hash (data anchor). */
  readonly hash: string;
  readonly signature: string | null;
  readonly pubKey: string | null;
  readonly identityUrl: string | null;
  readonly signedIdentity: string | null;
  readonly signedIssuerDomain: string | null;
  /** The 32-byte Merkle leaf: SHA-256 of the base64 signature, or the data hash. */
  readonly leaf: Buffer;
  readonly public: boolean;
  readonly tags: readonly string[];
  readonly metadata: Readonly<Record<string, MetadataValue>> | null;
  readonly callbackUrl: string | null;
  readonly created: number;
}

/** An anchor with the fields derived from its batch. */
export interface Anchor extends NewAnchor {
  readonly lastModified: number;
  readonly status: AnchorStatus;
  readonly batchId: string | null;
  readonly txId: string | null;
  readonly confirmations: number;
  /** Block time of the first confirmation, ms; null before it. */
  readonly timestamp: number | null;
}

/** The fields `PUT /v1/anchor/{id}` may change; an absent field is left as it is. */
export interface AnchorChanges {
  readonly name?: string;
  readonly public?: boolean;
  readonly tags?: readonly string[];
  readonly metadata?: Readonly<Record<string, MetadataValue>> | null;
  readonly callbackUrl?: string | null;
}

/**
 * Which anchors a hash finds, as in Woleet's API: `hash` matches what is anchored (the leaf: a data
 * anchor's hash, the SHA-256 of a signature anchor's signature), `signedHash` a signature anchor's
 * signed hash. Given both, an anchor must match both.
 */
export interface HashFilter {
  readonly hash?: string;
  readonly signedHash?: string;
}

export interface AnchorSearch extends HashFilter {
  readonly accountId: string;
  readonly name?: string;
  readonly tags?: readonly string[];
  readonly sort: 'created' | 'lastModified' | 'name';
  readonly direction: 'asc' | 'desc';
  readonly page: number;
  readonly size: number;
}

export interface PageOf<T> {
  readonly items: T[];
  readonly total: number;
}

/** The fields of an anchor a receipt is made of. */
export type ReceiptAnchor = Pick<
  Anchor,
  'id' | 'kind' | 'hash' | 'signature' | 'pubKey' | 'identityUrl' | 'signedIdentity' | 'signedIssuerDomain' | 'leaf'
> &
  Pick<Anchor, 'status' | 'batchId' | 'txId'>;

/** What a receipt needs: the anchor, its batch's root and transaction, and the proof path nodes. */
export interface AnchorProofData {
  readonly anchor: ReceiptAnchor;
  /** Null while the anchor is WAIT. */
  readonly batch: {
    readonly root: Buffer;
    readonly leafCount: number;
    readonly leafIndex: number;
    /** The siblings of the proof path, leaf to root (empty until the batch has a transaction). */
    readonly nodes: readonly Buffer[];
    /** Confirmed below the reorg watch: the receipt can no longer change. */
    readonly settled: boolean;
  } | null;
}

export interface AnchorRepository {
  /**
   * Inserts an anchor. Concurrent calls are grouped into one multi-row INSERT in one transaction
   * (group commit); the promise resolves once this row is committed.
   */
  insert(anchor: NewAnchor): Promise<void>;
  /** The anchor, with its derived status; null when unknown or (when `accountId` is given) another account's. */
  findById(id: string, accountId?: string): Promise<Anchor | null>;
  /** Applies the changes to the account's anchor; null when it has no such anchor. */
  update(id: string, accountId: string, changes: AnchorChanges, now: number): Promise<Anchor | null>;
  search(query: AnchorSearch): Promise<PageOf<Anchor>>;
  /** Ids of PUBLIC anchors matching the filter, oldest first. */
  publicIds(filter: HashFilter, page: number, size: number): Promise<PageOf<string>>;
  /** The anchor and, once batched, its batch's root, leaf position and proof path nodes, in one statement; null when unknown. */
  findProofData(id: string): Promise<AnchorProofData | null>;
  /**
   * {@link findProofData} of many anchors at once (unknown ones absent): one statement for the anchors, the
   * path's nodes taken from `levels` where kept, else read in one more; a batch's levels are read into `levels`
   * (as its budget allows) the first time one of its anchors is asked.
   */
  findProofDataMany(ids: readonly string[], levels: ResidentLevels): Promise<Map<string, AnchorProofData>>;
  /** The anchors of a batch that have a callback URL. */
  withCallbackInBatch(batchId: string): Promise<Anchor[]>;
}
