import { BoundedLru } from '../../core/cache/bounded-lru.js';
import { coalescedReads, type CoalescedReads } from '../../core/cache/coalesced-reads.js';
import { freshReads, type FreshReads } from '../../core/cache/fresh-reads.js';
import { ResidentLevels } from '../../core/cache/resident-levels.js';
import { receiptTextWithTx, type ReceiptSignature } from '../../core/chainpoint/receipt.js';
import { sha256Utf8 } from '../../core/hash/sha256.js';
import type { AppDeps } from '../shared/deps.js';
import type { AnchorProofData } from './anchor.port.js';
import { receiptTextPartsOf, type ReceiptTextProof } from './get-receipt.js';

/** A complete receipt as served over HTTP: its JSON text and an entity tag derived from it. */
export interface ReceiptDocument {
  readonly complete: true;
  readonly json: string;
  /** A strong entity tag (quoted): the first 128 bits of the SHA-256 of `json`, base64url. */
  readonly etag: string;
  /** The receipt can no longer change (its batch is confirmed below the reorg watch). */
  readonly settled: boolean;
  /** The transaction of the anchor's batch the receipt names. */
  readonly txId: string;
}

export type ReceiptDocumentResult =
  ReceiptDocument | { readonly complete: false; readonly signature?: ReceiptSignature };

/** What may still change in a receipt: its batch's transaction (null while WAIT) and whether it is settled. */
interface BatchState {
  readonly txId: string | null;
  readonly settled: boolean;
}

/**
 * What is kept of an anchor's receipt: the parts that never change (the receipt's text around its
 * transaction id), and the last document made of them.
 */
interface Kept {
  readonly signature?: ReceiptSignature;
  readonly proof: ReceiptTextProof;
  readonly doc?: ReceiptDocument;
}

/**
 * Receipts kept in memory, by anchor id: the parts that never change once the anchor's batch has a
 * transaction (signature, path, root) and the last document made of them. A settled document is served as
 * kept; any other is served only after its batch's transaction and settled flag were read again (one small
 * statement, shared by the concurrent requests for that batch, each answered by a read that began after it
 * arrived), so a fee bump or a reorg seen by another process is never missed.
 */
export interface ReceiptCache {
  readonly kept: BoundedLru<Kept>;
  readonly batchStates: FreshReads<string, BatchState | null>;
  /** The stored levels of the batches asked for, under a byte budget: a path is then read from memory. */
  readonly levels: ResidentLevels;
  /** First reads of anchors: concurrent ones share a statement. */
  readonly firstReads: CoalescedReads<string, AnchorProofData>;
}

/** Default bound of a {@link ReceiptCache}: 16 MB of receipt text (some 5,000 receipts of a million-anchor batch). */
const RECEIPT_CACHE_CHARS = 16 * 1024 * 1024;
/**
 * Default budget of the resident levels (RECEIPT_LEVELS_MB): none. Loading levels raised an API process's
 * peak RSS beyond its footprint goal at a million anchors (docs/performance-log-archive.md), so an operator turns
 * them on where memory allows.
 */
const LEVELS_BYTES = 0;
/** Most anchors one first-read statement asks for, and such statements running at once. */
const FIRST_READS = { maxKeys: 256, maxInFlight: 2 };

/**
 * A receipt cache of `store`'s receipts bounded by the total length of the receipts and paths it keeps, and
 * by `levelsBytes` of resident batch levels.
 */
export function createReceiptCache(
  store: Pick<AppDeps['store'], 'anchors'>,
  opts: { maxChars?: number; levelsBytes?: number } = {},
): ReceiptCache {
  const weigh = (k: Kept) => (k.doc?.json.length ?? 0) + k.proof.text.head.length + k.proof.text.tail.length + 256;
  const levels = new ResidentLevels(opts.levelsBytes ?? LEVELS_BYTES);
  return {
    kept: new BoundedLru<Kept>(opts.maxChars ?? RECEIPT_CACHE_CHARS, weigh),
    batchStates: freshReads(),
    levels,
    firstReads: coalescedReads((ids) => store.anchors.findProofDataMany(ids, levels), FIRST_READS),
  };
}

/**
 * The receipt of an anchor as its JSON text and entity tag: a settled one from memory; another from its
 * kept parts and a fresh read of its batch's state, or read whole the first time (concurrent first reads
 * share a statement; the path from the batch's resident levels where kept). While WAIT, the signature part only.
 * @throws DomainError NOT_FOUND when unknown
 */
export async function getReceiptDocument(
  deps: Pick<AppDeps, 'store'> & { readonly receiptCache: ReceiptCache },
  input: { id: string },
): Promise<ReceiptDocumentResult> {
  const cache = deps.receiptCache;
  const kept = cache.kept.get(input.id);
  if (kept?.doc?.settled) return kept.doc;
  if (kept) {
    const batchId = kept.proof.batchId;
    const state = await cache.batchStates(batchId, () => deps.store.batches.receiptState(batchId));
    return documentOf(cache, input.id, kept, state ?? { txId: null, settled: false });
  }
  const parts = receiptTextPartsOf(input.id, await cache.firstReads(input.id));
  if (parts.proof === null)
    return parts.signature ? { complete: false, signature: parts.signature } : { complete: false };
  return documentOf(cache, input.id, { ...parts, proof: parts.proof }, parts);
}

/** The document of the kept parts for the batch's state: the kept one when it names the same transaction. */
function documentOf(cache: ReceiptCache, id: string, kept: Kept, state: BatchState): ReceiptDocumentResult {
  if (kept.doc && kept.doc.txId === state.txId && kept.doc.settled === state.settled) return kept.doc;
  const parts = { ...(kept.signature ? { signature: kept.signature } : {}), proof: kept.proof };
  if (state.txId === null) {
    cache.kept.set(id, parts);
    return kept.signature ? { complete: false, signature: kept.signature } : { complete: false };
  }
  // The text of `JSON.stringify(buildReceipt(…))`, from the parts' text (checked when it was made).
  const json = receiptTextWithTx(kept.proof.text, state.txId);
  const etag = `"${sha256Utf8(json).subarray(0, 16).toString('base64url')}"`;
  const doc = { complete: true as const, json, etag, settled: state.settled, txId: state.txId };
  cache.kept.set(id, { ...parts, doc });
  return doc;
}
