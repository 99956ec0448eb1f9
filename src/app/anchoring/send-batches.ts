import { DomainError } from '../../core/errors.js';
import type { AnchoringDeps } from './anchoring-deps.js';
import { broadcastRecorded, reconcileSigned, signedRecord, type UnkeptTx } from './broadcast-anchor-tx.js';
import type { Batch } from './bitcoin.port.js';

export interface SendSummary {
  /** SIGNED transactions found and reconciled (marked or re-sent, the same bytes). */
  readonly reconciled: number;
  /** Coins freed that a crash had left reserved by a transaction never recorded. */
  readonly released: number;
  /** Txids broadcast for batches that had none. */
  readonly sent: string[];
  /** Transactions sent (or sent again) that the node did not keep, with the reason. */
  readonly unkept: UnkeptTx[];
  /** Set when the wallet could not pay for the next batch; it is tried again on the next run. */
  readonly insufficientFunds?: string;
  /** Batches still waiting when the run reached its time budget: run again at once. */
  readonly more?: boolean;
  /** Another live process was sending: this run did nothing. */
  readonly busy?: boolean;
}

/** A run starts no new batch after this long, so it ends well inside its job's expiry (see bitcoin.jobs.ts). */
export const SEND_BUDGET_MS = 20_000;

/**
 * Sends every closed batch that has no transaction: builds and signs it with the wallet, RECORDS it
 * (SIGNED) and only then broadcasts it, once. SIGNED transactions left by a crash are reconciled first,
 * so a batch never gets a second transaction. One process at a time sends (`store.btcTxs.whileSending`):
 * the job's expiry is short so that a killed worker's send is soon retried, and a run that outlasts it
 * must not meet a second one. A run stops starting batches after {@link SEND_BUDGET_MS} (`more`).
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached (the job retries)
 */
export async function sendBatches(deps: AnchoringDeps): Promise<SendSummary> {
  const summary = await deps.store.btcTxs.whileSending(() => sendAll(deps));
  return summary ?? { reconciled: 0, released: 0, sent: [], unkept: [], busy: true };
}

async function sendAll(deps: AnchoringDeps): Promise<SendSummary> {
  const started = deps.clock.now();
  const { reconciled, unkept } = await reconcileSigned(deps);
  const released = await deps.store.btcTxs.releaseOrphanReservations();
  const sent: string[] = [];
  for (const batch of await deps.store.batches.waitingForTx()) {
    if (deps.clock.now() - started >= SEND_BUDGET_MS) return { reconciled, released, sent, unkept, more: true };
    try {
      const { txid, lost } = await sendBatch(deps, batch);
      sent.push(txid);
      if (lost) unkept.push(lost);
    } catch (err) {
      if (err instanceof DomainError && (err.code === 'INSUFFICIENT_FUNDS' || err.code === 'FORBIDDEN')) {
        return { reconciled, released, sent, unkept, insufficientFunds: err.message };
      }
      throw err;
    }
  }
  return { reconciled, released, sent, unkept };
}

async function sendBatch(deps: AnchoringDeps, batch: Batch): Promise<{ txid: string; lost: UnkeptTx | null }> {
  const { feeRateSatVb, feeCapSatVb, maxFeeSat } = deps.settings;
  await deps.insideSend?.();
  const tx = await deps.wallet.createAnchorTx(batch.root, feeRateSatVb, { maxFeeRateSatVb: feeCapSatVb, maxFeeSat });
  const record = signedRecord(batch.id, tx, null, deps.clock.now());
  await deps.store.btcTxs.insert(record);
  return { txid: tx.txid, lost: await broadcastRecorded(deps, record) };
}
