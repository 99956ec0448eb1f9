import { coalescedReads } from '../../core/cache/coalesced-reads.js';
import { staticReceiptNamer, type StaticReceiptNamer } from '../../core/chainpoint/static-receipt-name.js';
import type { AppDeps } from '../shared/deps.js';
import { createReceiptCache, getReceiptDocument } from './get-receipt-document.js';
import type { PublishedReceipt, StaticReceiptDeps } from './static-receipts.port.js';

/** Anchors read and written per step: their receipts share a few statements, their objects are written concurrently. */
const PAGE = 512;
/** Objects being written at once. */
const WRITES_IN_FLIGHT = 16;
/** Batch levels the writer keeps resident (the paths of a million-anchor batch fit in ~32 MB). */
const LEVELS_BYTES = 32 * 1024 * 1024;

export type PublishDeps = Pick<AppDeps, 'store' | 'secretKey' | 'clock'> & {
  readonly staticReceipts: StaticReceiptDeps;
};

/**
 * Writes the static receipts of confirmed batches, each anchor's once per transaction of its batch, in seq
 * order, recording the progress after each page (a run stopped midway resumes there; a page written twice
 * writes the same bytes). The JSON is the very text `GET /v1/receipt/{id}` answers, named by the anchor and
 * the transaction it names (a receipt read after a reorg moved the batch is not written under the old name,
 * and its batch is written again on a later run).
 * Stops after `budgetMs`.
 * @returns receipts written and whether receipts are left to write
 */
export async function publishStaticReceipts(
  deps: PublishDeps,
  opts: { budgetMs: number },
): Promise<{ written: number; more: boolean }> {
  const started = deps.clock.now();
  const cache = createReceiptCache(deps.store, { maxChars: 1024 * 1024, levelsBytes: LEVELS_BYTES });
  const nameOf = staticReceiptNamer(deps.secretKey);
  let written = 0;
  for (const batch of await deps.store.staticReceipts.batchesToPublish(8)) {
    let next = batch.nextSeq;
    while (next <= batch.lastSeq) {
      if (deps.clock.now() - started > opts.budgetMs) return { written, more: true };
      const anchors = await deps.store.staticReceipts.anchorsInRange(next, batch.lastSeq, PAGE);
      const through = anchors.length < PAGE ? batch.lastSeq : anchors[anchors.length - 1]!.seq;
      const docs = await Promise.all(anchors.map((a) => getReceiptDocument({ ...deps, receiptCache: cache }, a)));
      let k = 0;
      const writer = async () => {
        while (k < anchors.length) {
          const i = k++;
          const doc = docs[i]!;
          // A confirmed batch's receipts are complete; one that names another transaction than the batch had
          // when it was picked (a reorg since) is left to a later run, which starts the batch again.
          if (!doc.complete || doc.txId !== batch.txId) continue;
          await deps.staticReceipts.objects.put(nameOf(anchors[i]!.id, doc.txId), doc.json);
          written++;
        }
      };
      await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, writer));
      await deps.store.staticReceipts.markPublished(batch.id, batch.txId, through);
      next = through + 1;
    }
  }
  return { written, more: (await deps.store.staticReceipts.batchesToPublish(1)).length > 0 };
}

/**
 * Whether an anchor's static receipt is written for its batch's present transaction, and that transaction:
 * concurrent asks share one statement (`= ANY($1)`), like the receipts' first reads. Not kept: each answer is
 * a fresh read (a receipt written a moment later is found, a batch moved by a reorg is seen at once).
 */
export function publishedLookup(
  store: Pick<AppDeps['store'], 'staticReceipts'>,
): (id: string) => Promise<PublishedReceipt | undefined> {
  return coalescedReads<string, PublishedReceipt>((ids) => store.staticReceipts.published(ids), {
    maxKeys: 256,
    maxInFlight: 2,
  });
}

/** What {@link staticReceiptLocation} needs: made once (the route's), used for every request. */
export interface StaticReceiptLocator {
  readonly staticReceipts: Pick<StaticReceiptDeps, 'publicBaseUrl'>;
  readonly isPublished: (id: string) => Promise<PublishedReceipt | undefined>;
  /** The static receipts' names under the service's SECRET_KEY ({@link staticReceiptNamer}). */
  readonly nameOf: StaticReceiptNamer;
}

/** A {@link StaticReceiptLocator} of the service's store and SECRET_KEY. */
export function staticReceiptLocator(
  deps: Pick<AppDeps, 'store' | 'secretKey'> & { readonly staticReceipts: StaticReceiptDeps },
): StaticReceiptLocator {
  return {
    staticReceipts: deps.staticReceipts,
    isPublished: publishedLookup(deps.store),
    nameOf: staticReceiptNamer(deps.secretKey),
  };
}

/**
 * Where `GET /v1/receipt/{id}` may send the client: the anchor's static receipt once written for its batch's
 * present transaction, and whether that batch is settled (the redirect may then be cached); else null (the
 * receipt is then served as before).
 */
export function staticReceiptLocation(
  locator: StaticReceiptLocator,
  input: { id: string },
): Promise<{ url: string; settled: boolean } | null> {
  return locator.isPublished(input.id).then((published) =>
    published === undefined
      ? null
      : {
          url: `${locator.staticReceipts.publicBaseUrl}${locator.nameOf(input.id, published.txId)}.json`,
          settled: published.settled,
        },
  );
}
