import { blockMerkleBranch } from '../../core/bitcoin/block-merkle.js';
import { DomainError } from '../../core/errors.js';
import { SEND_BATCHES, type AnchoringDeps } from './anchoring-deps.js';
import {
  broadcastRecorded,
  checkKept,
  sendOnce,
  signedRecord,
  txInfoOf,
  type UnkeptTx,
} from './broadcast-anchor-tx.js';
import { enqueueAnchorCallbacks } from './enqueue-anchor-callbacks.js';
import type { Batch, BtcTx } from './bitcoin.port.js';
import type { RawTransactionInfo } from './chain.port.js';

export interface ConfirmSummary {
  /** Batches that reached the required confirmations (now CONFIRMED). */
  readonly confirmed: string[];
  /** Txids seen in a block for the first time. */
  readonly firstConfirmations: string[];
  /** Batches whose recorded block left the best chain. */
  readonly reorgs: string[];
  /** Txids sent again, the same bytes, because the node no longer held any transaction of their batch. */
  readonly rebroadcast: string[];
  /**
   * Transactions the node did not keep: every one of a batch sent again (none held afterwards), or a
   * fee-bump replacement the node refused (the transaction it replaces may still be held).
   */
  readonly unkept: UnkeptTx[];
  /** Txids of fee-bump replacements. */
  readonly bumped: string[];
  /** Batches that are stuck but cannot pay more (fee cap or funds). */
  readonly atFeeCap: string[];
  /** Batches put back to WAIT because none of their transactions can confirm any more. */
  readonly abandoned: string[];
}

/**
 * One poll of every SENT batch, reading the chain:
 * - a recorded block whose height now holds another hash is a reorg: the block data goes, the batch
 *   stays SENT and its transactions compete again;
 * - the transaction of the batch seen in a block: its block, raw bytes and block Merkle branch are
 *   recorded at the first confirmation (for `/ots`), the other transactions of the batch become
 *   REPLACED, and the batch is CONFIRMED at the required confirmations;
 * - none in a block: lost by the node → the same bytes again; in the mempool for `bumpAfterBlocks`
 *   blocks → a BIP-125 replacement spending the same inputs at a higher fee, up to the cap.
 * Every transaction of a batch spends the same inputs, so at most one of them can ever confirm.
 */
export async function confirmBatches(deps: AnchoringDeps): Promise<ConfirmSummary> {
  const summary: ConfirmSummary = {
    confirmed: [],
    firstConfirmations: [],
    reorgs: [],
    rebroadcast: [],
    unkept: [],
    bumped: [],
    atFeeCap: [],
    abandoned: [],
  };
  const height = await deps.chain.getBlockCount();
  for (const batch of await deps.store.batches.confirmedAbove(height - deps.settings.reorgWatchDepth))
    await watchConfirmed(deps, batch, summary);
  // What the watch no longer covers can no longer change: its receipts may be kept (get-receipt.ts).
  await deps.store.batches.settleUpTo(height - deps.settings.reorgWatchDepth);
  for (const batch of await deps.store.batches.sent()) await confirmBatch(deps, batch, height, summary);
  await fillBlockHeaders(deps);
  return summary;
}

/** How many stored blocks without a header one run reads from the node (batches confirmed before migration 033). */
const HEADERS_PER_RUN = 100;

/**
 * Stores the header of each block a batch was confirmed in before headers were stored with the rest, read from the
 * node; a block the node no longer knows is left for the reorg watch. Bundles of those batches complete once done.
 */
export async function fillBlockHeaders(deps: Pick<AnchoringDeps, 'store' | 'chain'>): Promise<number> {
  let filled = 0;
  for (const { id, blockHash } of await deps.store.batches.withoutBlockHeader(HEADERS_PER_RUN)) {
    const header = await deps.chain.getBlockHeaderHex(blockHash);
    if (header === null) continue;
    await deps.store.batches.setBlockHeader(id, blockHash, header);
    filled += 1;
  }
  return filled;
}

/**
 * A CONFIRMED batch whose block left the best chain (a reorg deeper than the required confirmations)
 * goes back to SENT; the SENT pass right after treats it like any other reorg.
 */
async function watchConfirmed(deps: AnchoringDeps, b: Batch, s: ConfirmSummary): Promise<void> {
  if (!b.block || (await deps.chain.getBlockHash(b.block.blockHeight)) === b.block.blockHash) return;
  await clearConfirmation(deps, b);
  s.reorgs.push(b.id);
}

/** The batch's block left the best chain: its block data goes and its callbacks are queued, in one transaction. */
async function clearConfirmation(deps: AnchoringDeps, b: Batch): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await tx.batches.clearConfirmation(b.id, deps.clock.now());
    await enqueueAnchorCallbacks(tx, { batchId: b.id });
  });
}

async function confirmBatch(deps: AnchoringDeps, batch: Batch, height: number, s: ConfirmSummary): Promise<void> {
  let b = batch;
  if (b.block && (await deps.chain.getBlockHash(b.block.blockHeight)) !== b.block.blockHash) {
    await clearConfirmation(deps, b);
    s.reorgs.push(b.id);
    b = { ...b, block: null, confirmations: 0 };
  }
  const txs = (await deps.store.btcTxs.ofBatch(b.id)).filter((t) => t.status !== 'ABANDONED');
  if (txs.length === 0) return abandon(deps, b, txs, s);
  const seen = await Promise.all(txs.map((t) => deps.chain.getRawTransaction(t.txid)));
  const best = seen.reduce(
    (acc, info, i) => ((info?.confirmations ?? 0) > (seen[acc]?.confirmations ?? 0) ? i : acc),
    0,
  );
  const info = seen[best];
  if (info && info.confirmations > 0) return onConfirmed(deps, b, txs, txs[best]!, info, s);
  await onUnconfirmed(deps, b, txs, seen, height, s);
}

async function onConfirmed(
  deps: AnchoringDeps,
  b: Batch,
  txs: BtcTx[],
  winner: BtcTx,
  info: RawTransactionInfo,
  s: ConfirmSummary,
): Promise<void> {
  if (!b.block || b.txId !== winner.txid) {
    await recordFirstConfirmation(deps, b, txs, winner, info);
    s.firstConfirmations.push(winner.txid);
  }
  const confirmed = info.confirmations >= deps.settings.confirmationsRequired;
  await deps.store.transaction(async (tx) => {
    await tx.batches.setConfirmations(b.id, { confirmations: info.confirmations, confirmed }, deps.clock.now());
    if (confirmed) await enqueueAnchorCallbacks(tx, { batchId: b.id });
  });
  if (confirmed) s.confirmed.push(b.id);
}

/** Records the block and proof data; the winner's inputs are spent and its change usable, the others' change never exists. */
async function recordFirstConfirmation(
  deps: AnchoringDeps,
  b: Batch,
  txs: BtcTx[],
  winner: BtcTx,
  info: RawTransactionInfo,
): Promise<void> {
  const block = info.blockHash === null ? null : await deps.chain.getBlock(info.blockHash);
  const header = block && (await deps.chain.getBlockHeaderHex(block.hash));
  if (!block || !header)
    throw new DomainError('CHAIN_UNAVAILABLE', `block of ${winner.txid} vanished while reading it`);
  const proof = {
    blockHeader: header,
    txId: winner.txid,
    blockHash: block.hash,
    blockHeight: block.height,
    blockTime: block.time * 1000,
    rawTx: info.hex,
    txMerkleBranch: blockMerkleBranch(block.txids, winner.txid),
  };
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    await tx.batches.recordConfirmation(b.id, proof, info.confirmations, now);
    for (const t of txs) await tx.btcTxs.setStatus(t.txid, t.txid === winner.txid ? 'CONFIRMED' : 'REPLACED', now);
    await tx.utxos.setStatus(winner.inputs, 'spent');
    await tx.utxos.setStatus(
      txs.filter((t) => t !== winner && t.change).map((t) => t.change!),
      'abandoned',
    );
    if (winner.change) {
      // The change may be marked spent or abandoned (a gettxout that did not see it yet, a fee bump): usable
      // again. But not if the send job already chose it for a newer transaction: bcoin's gettxout does not
      // see spends in its mempool, so `reserved` is all that keeps the wallet from spending it twice.
      await tx.utxos.add([{ ...winner.change, status: 'available' }]);
      await tx.utxos.setStatus([winner.change], 'available', 'reserved');
    }
  });
}

async function onUnconfirmed(
  deps: AnchoringDeps,
  b: Batch,
  txs: BtcTx[],
  seen: (RawTransactionInfo | null)[],
  height: number,
  s: ConfirmSummary,
): Promise<void> {
  const now = deps.clock.now();
  for (const t of txs)
    if (t.status === 'CONFIRMED' || t.status === 'REPLACED')
      await deps.store.btcTxs.setStatus(t.txid, 'BROADCAST', now);
  if (seen.every((info) => info === null)) {
    if (await inputsGone(deps, txs)) return abandon(deps, b, txs, s);
    return rebroadcast(deps, txs, height, s);
  }
  const newest = txs[0]!;
  if (newest.broadcastHeight !== null && height - newest.broadcastHeight >= deps.settings.bumpAfterBlocks)
    await bump(deps, b, newest, s);
}

/**
 * The node holds no transaction of the batch any more (reorg, restart, mempool eviction, or it never
 * took them): send them again, newest first (the older ones conflict with it and are refused), then
 * check that the node now holds one; when it holds none, each is reported unkept with its reason.
 */
async function rebroadcast(deps: AnchoringDeps, txs: BtcTx[], height: number, s: ConfirmSummary): Promise<void> {
  const refusals: (string | null)[] = [];
  for (const t of txs) {
    refusals.push(await sendOnce(deps, t.hex));
    await deps.store.btcTxs.setStatus(t.txid, 'BROADCAST', deps.clock.now(), height);
    s.rebroadcast.push(t.txid);
  }
  const lost: UnkeptTx[] = [];
  for (const [i, t] of txs.entries()) {
    const unkept = await checkKept(deps, t, refusals[i]!);
    if (!unkept) return;
    lost.push(unkept);
  }
  s.unkept.push(...lost);
}

/**
 * True when an input of the batch's transactions (they all share them) is spent by something else, so
 * none of them can ever confirm. An input whose parent is one of our own transactions still waiting
 * (chained change lost in the same reorg) is not gone; a parent recorded CONFIRMED is waiting only if
 * the node no longer has it in a block (a reorg the watch has not handled yet). A parent in a block whose
 * output the node reports gone had that output spent by another transaction: the input is gone.
 */
async function inputsGone(deps: AnchoringDeps, txs: BtcTx[]): Promise<boolean> {
  for (const input of txs[txs.length - 1]!.inputs) {
    if (await deps.chain.getTxOut(input.txid, input.vout)) continue;
    const parent = await deps.store.btcTxs.findByTxid(input.txid);
    if (parent && (await parentWaiting(deps, parent))) continue;
    return true;
  }
  return false;
}

async function parentWaiting(deps: AnchoringDeps, parent: BtcTx): Promise<boolean> {
  if (parent.status === 'SIGNED' || parent.status === 'BROADCAST') return true;
  if (parent.status !== 'CONFIRMED') return false;
  return ((await deps.chain.getRawTransaction(parent.txid))?.confirmations ?? 0) === 0;
}

async function abandon(deps: AnchoringDeps, b: Batch, txs: BtcTx[], s: ConfirmSummary): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    for (const t of txs) await tx.btcTxs.setStatus(t.txid, 'ABANDONED', now);
    await tx.utxos.setStatus(
      txs.flatMap((t) => t.inputs),
      'available',
    );
    await tx.utxos.setStatus(
      txs.filter((t) => t.change).map((t) => t.change!),
      'abandoned',
    );
    await tx.batches.resetToWait(b.id, now);
    await enqueueAnchorCallbacks(tx, { batchId: b.id });
    await tx.jobs.send(SEND_BATCHES, {}, { singletonKey: SEND_BATCHES });
  });
  s.abandoned.push(b.id);
}

/** The next fee rate of a stuck transaction: +50 % (at least +1 sat/vB), capped; null at the cap. */
export function nextFeeRate(currentSatVb: number, capSatVb: number): number | null {
  const current = Math.ceil(currentSatVb);
  if (current >= capSatVb) return null;
  return Math.min(capSatVb, Math.max(current + 1, Math.ceil(current * 1.5)));
}

async function bump(deps: AnchoringDeps, b: Batch, newest: BtcTx, s: ConfirmSummary): Promise<void> {
  const { feeCapSatVb, maxFeeSat } = deps.settings;
  const rate = nextFeeRate(newest.feeRateSatVb, feeCapSatVb);
  if (rate === null) {
    s.atFeeCap.push(b.id);
    return;
  }
  let next;
  try {
    next = await deps.wallet.bumpAnchorTx(txInfoOf(newest), rate, { maxFeeRateSatVb: feeCapSatVb, maxFeeSat });
  } catch (err) {
    if (err instanceof DomainError && (err.code === 'FORBIDDEN' || err.code === 'INSUFFICIENT_FUNDS')) {
      s.atFeeCap.push(b.id);
      return;
    }
    throw err;
  }
  const record = signedRecord(b.id, next, newest.txid, deps.clock.now());
  await deps.store.btcTxs.insert(record);
  const lost = await broadcastRecorded(deps, record);
  s.bumped.push(next.txid);
  if (lost) s.unkept.push(lost);
}
