import { describeAnchorTx, type AnchorTxInfo } from '../../core/bitcoin/anchor-tx.js';
import { DomainError } from '../../core/errors.js';
import type { AnchoringDeps } from './anchoring-deps.js';
import { enqueueAnchorCallbacks } from './enqueue-anchor-callbacks.js';
import type { BtcTx } from './bitcoin.port.js';

/** The row that records a freshly signed transaction, before it is broadcast. */
export function signedRecord(batchId: string, tx: AnchorTxInfo, replaces: string | null, now: number): BtcTx {
  return {
    txid: tx.txid,
    batchId,
    hex: tx.hex,
    feeSat: tx.feeSat,
    feeRateSatVb: tx.feeSat / tx.vsize,
    vsize: tx.vsize,
    inputs: tx.inputs,
    change: tx.change,
    replaces,
    status: 'SIGNED',
    broadcastHeight: null,
    created: now,
  };
}

/** The wallet's view of a recorded transaction (for a fee bump or to mark its inputs spent). */
export function txInfoOf(tx: BtcTx): AnchorTxInfo {
  return describeAnchorTx(tx.hex, tx.inputs);
}

/** A transaction handed to the node that the node then held neither in its mempool nor in its chain. */
export interface UnkeptTx {
  readonly txid: string;
  readonly batchId: string;
  /** The node's refusal when it answered one, else what was seen. */
  readonly reason: string;
}

/**
 * How long to keep asking whether the node holds a transaction it answered without an error: bcoin
 * answers `sendrawtransaction` at once and takes (or refuses) the transaction into its mempool after.
 */
export const HOLD_CHECK_MS = 2_000;
const NOT_HELD =
  'the node answered sendrawtransaction without an error, then held it in neither its mempool nor its chain';

/**
 * Hands a transaction to the node, one attempt. Returns the node's refusal (already known, conflict,
 * fee, invalid…) as text, or null when it answered the txid.
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function sendOnce(deps: Pick<AnchoringDeps, 'chain'>, hex: string): Promise<string | null> {
  try {
    await deps.chain.sendRawTransaction(hex);
    return null;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'CHAIN_UNAVAILABLE') throw err;
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Null when the node holds the transaction (mempool or chain), else why not. After an answer without an
 * error the node gets {@link HOLD_CHECK_MS} to take it; after a refusal it is asked once (a refusal such
 * as "already in the mempool" still leaves it held).
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function checkKept(
  deps: Pick<AnchoringDeps, 'chain'>,
  tx: Pick<BtcTx, 'txid' | 'batchId'>,
  refusal: string | null,
): Promise<UnkeptTx | null> {
  const place = await deps.chain.locateTransaction(tx.txid, refusal === null ? HOLD_CHECK_MS : 0);
  return place === null ? { txid: tx.txid, batchId: tx.batchId, reason: refusal ?? NOT_HELD } : null;
}

/**
 * Hands a recorded (SIGNED) transaction to the node — one attempt — then records it BROADCAST and names
 * it as the batch's transaction (WAIT → SENT, callbacks queued), then checks that the node holds it. A
 * node that refuses it still counts as broadcast (the confirm job re-broadcasts the same bytes or
 * replaces them), but the refusal is returned for the log and `/ready`. When the node cannot be reached
 * the row stays SIGNED and the error is thrown; the next run re-sends the same bytes.
 * @returns null when the node holds the transaction, else why it does not
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function broadcastRecorded(deps: AnchoringDeps, tx: BtcTx): Promise<UnkeptTx | null> {
  const refusal = await sendOnce(deps, tx.hex);
  deps.afterBroadcast?.();
  await recordBroadcast(deps, tx);
  return checkKept(deps, tx, refusal);
}

/** Records the broadcast; the first one of a batch makes it SENT and queues its callbacks, in one transaction. */
async function recordBroadcast(deps: AnchoringDeps, tx: BtcTx): Promise<void> {
  const height = await deps.chain.getBlockCount();
  const now = deps.clock.now();
  await deps.store.transaction(async (t) => {
    await t.btcTxs.setStatus(tx.txid, 'BROADCAST', now, height);
    if (await t.batches.markSent(tx.batchId, tx.txid, now)) await enqueueAnchorCallbacks(t, { batchId: tx.batchId });
    else await t.batches.setTxId(tx.batchId, tx.txid, now);
  });
}

export interface ReconcileSummary {
  /** SIGNED transactions found: marked BROADCAST when the node knew them, else sent again (same bytes). */
  readonly reconciled: number;
  /** Those sent again that the node did not keep. */
  readonly unkept: UnkeptTx[];
}

/**
 * Transactions left SIGNED (a crash or an unreachable node between recording and recording the
 * broadcast): one the node knows is marked BROADCAST; any other is sent again, the SAME bytes.
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function reconcileSigned(deps: AnchoringDeps): Promise<ReconcileSummary> {
  const signed = await deps.store.btcTxs.withStatus('SIGNED');
  const unkept: UnkeptTx[] = [];
  for (const tx of signed) {
    if (await deps.chain.getRawTransaction(tx.txid)) await recordBroadcast(deps, tx);
    else {
      const lost = await broadcastRecorded(deps, tx);
      if (lost) unkept.push(lost);
    }
  }
  return { reconciled: signed.length, unkept };
}
