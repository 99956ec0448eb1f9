import { BoundedLru } from '../../core/cache/bounded-lru.js';
import type { ReceiptSignature } from '../../core/chainpoint/receipt.js';
import { sha256Utf8 } from '../../core/hash/sha256.js';
import type { AppDeps } from '../shared/deps.js';
import { getReceipt } from './get-receipt.js';

/** A complete receipt as served over HTTP: its JSON text and an entity tag derived from it. */
export interface ReceiptDocument {
  readonly complete: true;
  readonly json: string;
  /** A strong entity tag (quoted): the first 128 bits of the SHA-256 of `json`, base64url. */
  readonly etag: string;
  /** The receipt can no longer change (its batch is confirmed below the reorg watch). */
  readonly settled: boolean;
}

export type ReceiptDocumentResult =
  ReceiptDocument | { readonly complete: false; readonly signature?: ReceiptSignature };

/**
 * Settled receipts kept in memory, by anchor id. Only what can no longer change is kept, so several
 * API processes each with a cache never serve a receipt another one has seen change (a fee bump or a
 * reorg only touches batches still watched, never settled ones).
 */
export type ReceiptCache = BoundedLru<ReceiptDocument>;

/** Default bound of a {@link ReceiptCache}: 16 MB of receipt text (some 10,000 receipts of a million-anchor batch). */
const RECEIPT_CACHE_CHARS = 16 * 1024 * 1024;

/** A receipt cache bounded by the total length of the receipts it keeps. */
export function createReceiptCache(maxChars = RECEIPT_CACHE_CHARS): ReceiptCache {
  return new BoundedLru<ReceiptDocument>(maxChars, (d) => d.json.length);
}

/**
 * The receipt of an anchor as its JSON text and entity tag: from the cache when settled and seen
 * before, else read (one statement) and kept when settled. While WAIT, the signature part only.
 * @throws DomainError NOT_FOUND when unknown
 */
export async function getReceiptDocument(
  deps: Pick<AppDeps, 'store'> & { readonly receiptCache: ReceiptCache },
  input: { id: string },
): Promise<ReceiptDocumentResult> {
  const cached = deps.receiptCache.get(input.id);
  if (cached) return cached;
  const result = await getReceipt(deps, input);
  if (!result.complete) return result;
  const json = JSON.stringify(result.receipt);
  const etag = `"${sha256Utf8(json).subarray(0, 16).toString('base64url')}"`;
  const doc: ReceiptDocument = { complete: true, json, etag, settled: result.settled };
  if (doc.settled) deps.receiptCache.set(input.id, doc);
  return doc;
}
