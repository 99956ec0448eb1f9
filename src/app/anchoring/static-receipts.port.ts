/**
 * Static receipts (STATIC_RECEIPTS_URL, docs/performance.md): a confirmed batch's receipts change only if a
 * reorg puts the batch into another transaction, so each is written once per transaction as a static object
 * named by the anchor and the transaction, that any HTTP server or CDN serves, and `GET /v1/receipt/{id}`
 * may redirect there. Two ports: what the store records of the writing, and where the objects go.
 */

/**
 * A confirmed batch whose static receipts for its transaction `txId` are not all written: anchors
 * `nextSeq`..`lastSeq` are left.
 */
export interface BatchToPublish {
  readonly id: string;
  readonly txId: string;
  readonly nextSeq: number;
  readonly lastSeq: number;
}

/** An anchor whose static receipt is written for its batch's present transaction. */
export interface PublishedReceipt {
  readonly txId: string;
  /** The batch is settled (below the reorg watch): the redirect itself may be cached. */
  readonly settled: boolean;
}

export interface StaticReceiptRepository {
  /**
   * Confirmed batches (closed with a seq range) with receipts left to write for their present transaction,
   * oldest first; a batch whose transaction changed since its receipts were written starts again.
   */
  batchesToPublish(limit: number): Promise<BatchToPublish[]>;
  /** Ids of the anchors with `seq` in `fromSeq`..`toSeq`, by seq, at most `limit`, each with its seq. */
  anchorsInRange(fromSeq: number, toSeq: number, limit: number): Promise<{ id: string; seq: number }[]>;
  /**
   * Records that the batch's receipts for transaction `txId` are written up to `throughSeq` (never moves back
   * for one transaction); nothing when the batch is no longer in `txId`.
   */
  markPublished(batchId: string, txId: string, throughSeq: number): Promise<void>;
  /** Which of these anchors (ids, distinct) have their static receipt written for their batch's present transaction. */
  published(ids: readonly string[]): Promise<Map<string, PublishedReceipt>>;
}

/** Where static receipts are written: objects named `<name>.json` under one public prefix. */
export interface StaticReceiptObjects {
  /** Writes (or writes again, identically) the receipt's JSON text as `<name>.json`, served as application/json. */
  put(name: string, json: string): Promise<void>;
}

/** The static receipts' settings, handed to the use cases that write them and to the receipt route. */
export interface StaticReceiptDeps {
  readonly objects: StaticReceiptObjects;
  /** Public URL of the prefix the objects are served under, ending in `/` (the redirect goes to `<base><name>.json`). */
  readonly publicBaseUrl: string;
}
