import { coalescedReads } from '../../core/cache/coalesced-reads.js';
import { staticReceiptName } from '../../core/chainpoint/static-receipt-name.js';
import type { AppDeps } from '../shared/deps.js';
import { createReceiptCache, getReceiptDocument } from './get-receipt-document.js';
import type { StaticReceiptDeps } from './static-receipts.port.js';

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
 * Writes the static receipts of settled batches, each anchor's once, in seq order, recording the progress
 * after each page (a run stopped midway resumes there; a page written twice writes the same bytes). The
 * JSON is the very text `GET /v1/receipt/{id}` answers. Stops after `budgetMs`.
 * @returns receipts written and whether settled receipts are left to write
 */
export async function publishStaticReceipts(
  deps: PublishDeps,
  opts: { budgetMs: number },
): Promise<{ written: number; more: boolean }> {
  const started = deps.clock.now();
  const cache = createReceiptCache(deps.store, { maxChars: 1024 * 1024, levelsBytes: LEVELS_BYTES });
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
          // A settled batch's receipts are complete and settled; anything else is left to the API's path.
          if (!doc.complete || !doc.settled) continue;
          await deps.staticReceipts.objects.put(staticReceiptName(deps.secretKey, anchors[i]!.id), doc.json);
          written++;
        }
      };
      await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, writer));
      await deps.store.staticReceipts.markPublished(batch.id, through);
      next = through + 1;
    }
  }
  return { written, more: (await deps.store.staticReceipts.batchesToPublish(1)).length > 0 };
}

/**
 * Whether an anchor's static receipt is written: concurrent asks share one statement (`= ANY($1)`), like
 * the receipts' first reads. Not kept: each answer is a fresh read (a receipt written a moment later is found).
 */
export function publishedLookup(store: Pick<AppDeps['store'], 'staticReceipts'>): (id: string) => Promise<boolean> {
  const read = coalescedReads<string, true>(
    async (ids) => new Map([...(await store.staticReceipts.published(ids))].map((id) => [id, true as const])),
    { maxKeys: 256, maxInFlight: 2 },
  );
  return async (id) => (await read(id)) === true;
}

/**
 * Where `GET /v1/receipt/{id}` may send the client: the anchor's static receipt once written, else null
 * (the receipt is then served as before).
 */
export async function staticReceiptLocation(
  deps: Pick<AppDeps, 'secretKey'> & {
    readonly staticReceipts: StaticReceiptDeps;
    readonly isPublished: (id: string) => Promise<boolean>;
  },
  input: { id: string },
): Promise<string | null> {
  if (!(await deps.isPublished(input.id))) return null;
  return `${deps.staticReceipts.publicBaseUrl}${staticReceiptName(deps.secretKey, input.id)}.json`;
}
