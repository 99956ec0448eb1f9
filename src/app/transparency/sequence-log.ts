import { appendLeaves, edgeRoot, edgeTiles, type TileEdge } from '../../core/tlog/append.js';
import { signCheckpoint } from '../../core/tlog/checkpoint.js';
import { encodeEntry, type LogEntry } from '../../core/tlog/entry.js';
import { HASH_SIZE, leafHash } from '../../core/tlog/rfc6962.js';
import { packBundle, TILE_WIDTH, unpackBundle } from '../../core/tlog/tiles.js';
import { createAnchor } from '../anchoring/create-anchor.js';
import { getReceipt } from '../anchoring/get-receipt.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { loadLogKey, type LogKey } from './log-key.js';
import { type Bundle, type LoggedAnchor, type TakenSignerEvent } from './tlog.port.js';
import { LOG_ACCOUNT_ID, type TransparencyDeps } from './transparency.port.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'> & { readonly transparency: TransparencyDeps };

/** Entries one run appends at most (a run is one transaction). */
export const ENTRIES_PER_RUN = 20_000;
/** Checkpoint seals whose receipts one run looks at. */
const RECEIPTS_PER_RUN = 16;

interface NewEntry {
  readonly bytes: Buffer;
  /** An anchor's entry: the anchor's seq (its index is kept by it). */
  readonly anchorSeq: number | null;
  /** A signing event's entry: its request and the signature's anchor it names (its index is kept by request). */
  readonly event?: { readonly requestId: string; readonly anchorId: string | null };
}

export interface SequenceResult {
  readonly appended: number;
  /** The run stopped at its limit: more entries wait. */
  readonly more: boolean;
}

/**
 * One sequencer run, in one transaction under the log's lock: the anchors committed since the last run
 * (up to the seq below which every insert has ended, as a batch close reads it), the pending signing events and
 * the receipts of sealed checkpoints that now have one get the next indexes, in that order; the tiles and
 * entry bundles of the right edge are rewritten, a checkpoint is signed, and — when the run logged anything
 * but checkpoint receipts — its root is sealed as an ordinary anchor of the service.
 */
export async function sequenceLog(deps: Deps): Promise<SequenceResult> {
  // An idle service takes no lock and opens no key.
  if (!(await deps.store.tlog.hasWork(LOG_ACCOUNT_ID))) return { appended: 0, more: false };
  const key = await loadLogKey(deps);
  const sealedSeq = await deps.store.batches.sealedSeq();
  return deps.store.transaction(async (tx) => {
    const state = await tx.tlog.lockState();
    const anchors = await tx.tlog.anchorsAfter(state.anchorSeq, sealedSeq, ENTRIES_PER_RUN, LOG_ACCOUNT_ID);
    const anchorSeq = anchors.length === ENTRIES_PER_RUN ? anchors.at(-1)!.seq : Math.max(sealedSeq, state.anchorSeq);
    // Events after their anchors: a SIGNED event whose anchor is past this run's cursor waits for it.
    const events = await tx.tlog.takeSignerEvents(ENTRIES_PER_RUN - anchors.length, anchorSeq);
    const receipts = await receiptEntries(tx);
    const entries = [...anchors.map(anchorEntry), ...events.map(signerEventEntry), ...receipts];
    const more = anchors.length + events.length >= ENTRIES_PER_RUN;
    if (entries.length === 0) {
      if (anchorSeq !== state.anchorSeq) await tx.tlog.saveState({ size: state.size, anchorSeq });
      return { appended: 0, more: false };
    }
    const edge = await appendEntries(tx, state.size, entries);
    await tx.tlog.saveState({ size: edge.size, anchorSeq });
    await publishCheckpoint({ ...deps, store: tx }, key, edge, anchors.length + events.length > 0);
    return { appended: entries.length, more };
  });
}

function anchorEntry(a: LoggedAnchor): NewEntry {
  const dataPrivate = a.kind === 'data' && !a.public;
  const entry: LogEntry = {
    type: 'anchor',
    id: a.id,
    kind: a.kind,
    created: a.created,
    public: a.public,
    leaf: dataPrivate ? null : a.leafHex,
    signedHash: a.kind === 'signature' && a.public ? a.hash : null,
    pubKey: a.pubKey,
    signedIdentity: a.signedIdentity,
    signedIssuerDomain: a.signedIssuerDomain,
  };
  return { bytes: encodeEntry(entry), anchorSeq: a.seq };
}

function signerEventEntry(e: TakenSignerEvent): NewEntry {
  const entry: LogEntry = {
    type: 'signer-event',
    event: e.event,
    request: e.requestId,
    signer: e.signerId,
    anchor: e.anchorId,
    pubKey: e.pubKey,
    signedIdentity: e.signedIdentity,
    time: e.at,
  };
  return { bytes: encodeEntry(entry), anchorSeq: null, event: { requestId: e.requestId, anchorId: e.anchorId } };
}

/** The entries of sealed checkpoints whose seal now has a complete receipt (marked logged). */
async function receiptEntries(tx: Store): Promise<NewEntry[]> {
  const out: NewEntry[] = [];
  for (const c of await tx.tlog.sealedUnlogged(RECEIPTS_PER_RUN)) {
    const result = await getReceipt({ store: tx }, { id: c.anchorId! });
    if (!result.complete) break; // later seals have no receipt either
    const entry: LogEntry = {
      type: 'checkpoint-receipt',
      size: c.size,
      root: c.root.toString('hex'),
      anchor: c.anchorId!,
      receipt: result.receipt,
    };
    out.push({ bytes: encodeEntry(entry), anchorSeq: null });
    await tx.tlog.markReceiptLogged(c.size);
  }
  return out;
}

/**
 * Writes the entries after `size`: the tiles and bundles they change, the anchors' indexes and the signing
 * events' (by request). Returns the new edge.
 */
async function appendEntries(tx: Store, size: number, entries: readonly NewEntry[]): Promise<TileEdge> {
  const partial = new Map<number, Buffer>();
  for (const t of edgeTiles(size)) {
    const hashes = await tx.tlog.tile(t.level, t.index);
    partial.set(t.level, (hashes ?? Buffer.alloc(0)).subarray(0, t.width * HASH_SIZE));
  }
  const appended = appendLeaves(
    { size, partial },
    entries.map((e) => leafHash(e.bytes)),
  );
  await tx.tlog.writeTiles(appended.tiles);
  await tx.tlog.writeBundles(await bundlesAfter(tx, size, entries));
  // The anchors come first in a run: their entries' indexes follow one another from `size`.
  const seqs: number[] = [];
  entries.forEach((e, i) => {
    if (e.anchorSeq === null) return;
    if (i !== seqs.length) throw new Error('the anchors of a sequencer run come before its other entries');
    seqs.push(e.anchorSeq);
  });
  await tx.tlog.addRefs(size, seqs);
  await tx.tlog.addEventRefs(
    entries.flatMap((e, i) =>
      e.event ? [{ requestId: e.event.requestId, index: size + i, anchorId: e.event.anchorId }] : [],
    ),
  );
  return appended.edge;
}

/**
 * The entry bundles changed by appending `entries` to a log of `size`: the partial one made longer (its stored
 * bytes kept as they are, the new entries packed after them), then new ones.
 */
async function bundlesAfter(tx: Store, size: number, entries: readonly NewEntry[]): Promise<Bundle[]> {
  const first = Math.floor(size / TILE_WIDTH);
  const kept = size % TILE_WIDTH;
  let head: Buffer = Buffer.alloc(0);
  if (kept > 0) {
    const stored = (await tx.tlog.bundle(first))?.entries ?? Buffer.alloc(0);
    const held = unpackBundle(stored, kept);
    if (held.length !== kept)
      throw new Error(`the log's entry bundle ${first} holds ${held.length} entries, not ${kept}`);
    head = stored.subarray(
      0,
      held.reduce((n, e) => n + 2 + e.length, 0),
    );
  }
  const out: Bundle[] = [];
  for (let at = 0, index = first, count = kept; at < entries.length; index++, count = 0) {
    const part = entries.slice(at, at + TILE_WIDTH - count).map((e) => e.bytes);
    const packed = packBundle(part);
    out.push({
      index,
      count: count + part.length,
      entries: count > 0 ? Buffer.concat([head, packed]) : packed,
    });
    at += part.length;
  }
  return out;
}

/** Signs and keeps the checkpoint of the log's new size; seals its root when asked. */
async function publishCheckpoint(deps: Deps, key: LogKey, edge: TileEdge, seal: boolean): Promise<void> {
  const origin = deps.transparency.origin;
  const size = edge.size;
  const root = edgeRoot(edge);
  const note = signCheckpoint({ origin, size, root }, origin, key.seed);
  const anchorId = seal ? (await sealRoot(deps, size, root)).id : null;
  await deps.store.tlog.addCheckpoint({ size, root, note, created: deps.clock.now(), anchorId });
}

function sealRoot(deps: Deps, size: number, root: Buffer) {
  return createAnchor(deps, {
    accountId: LOG_ACCOUNT_ID,
    name: `${deps.transparency.origin} checkpoint ${size}`,
    hash: root.toString('hex'),
    public: true,
    tags: ['transparency-log'],
  });
}
