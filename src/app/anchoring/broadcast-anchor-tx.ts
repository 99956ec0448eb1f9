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

/**
 * Hands a recorded (SIGNED) transaction to the node — one attempt — then records it BROADCAST and names
 * it as the batch's transaction (WAIT → SENT, callbacks queued). A node that answers with a refusal
 * (already known, conflict, fee) still counts as broadcast: the confirm job re-broadcasts the same
 * bytes or replaces them. When the node cannot be reached the row stays SIGNED and the error is thrown;
 * the next run re-sends the same bytes.
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function broadcastRecorded(deps: AnchoringDeps, tx: BtcTx): Promise<void> {
  try {
    await deps.chain.sendRawTransaction(tx.hex);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'CHAIN_UNAVAILABLE') throw err;
  }
  deps.afterBroadcast?.();
  await recordBroadcast(deps, tx);
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

/**
 * Transactions left SIGNED (a crash or an unreachable node between recording and recording the
 * broadcast): one the node knows is marked BROADCAST; any other is sent again, the SAME bytes.
 * @returns how many were reconciled
 */
export async function reconcileSigned(deps: AnchoringDeps): Promise<number> {
  const signed = await deps.store.btcTxs.withStatus('SIGNED');
  for (const tx of signed) {
    if (await deps.chain.getRawTransaction(tx.txid)) await recordBroadcast(deps, tx);
    else await broadcastRecorded(deps, tx);
  }
  return signed.length;
}
