/**
 * Static settled receipts (STATIC_RECEIPTS_URL, docs/performance.md): a settled receipt never changes, so it
 * is written once as a static object that any HTTP server or CDN serves, and `GET /v1/receipt/{id}` may
 * redirect there. Two ports: what the store records of the writing, and where the objects go.
 */

/** A settled batch whose static receipts are not all written: anchors `nextSeq`..`lastSeq` are left. */
export interface BatchToPublish {
  readonly id: string;
  readonly nextSeq: number;
  readonly lastSeq: number;
}

export interface StaticReceiptRepository {
  /** Settled batches (closed with a seq range) with receipts left to write, oldest first. */
  batchesToPublish(limit: number): Promise<BatchToPublish[]>;
  /** Ids of the anchors with `seq` in `fromSeq`..`toSeq`, by seq, at most `limit`, each with its seq. */
  anchorsInRange(fromSeq: number, toSeq: number, limit: number): Promise<{ id: string; seq: number }[]>;
  /** Records that the batch's receipts are written up to `throughSeq` (never moves back). */
  markPublished(batchId: string, throughSeq: number): Promise<void>;
  /** Which of these anchors (ids, distinct) have their static receipt written. */
  published(ids: readonly string[]): Promise<Set<string>>;
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
