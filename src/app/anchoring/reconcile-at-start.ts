import type { AnchoringDeps } from './anchoring-deps.js';
import { reconcileSigned, type ReconcileSummary } from './broadcast-anchor-tx.js';

/**
 * A worker that died between a broadcast and its bookkeeping left a SIGNED transaction: reconciled when a
 * worker starts (the same bytes, idempotent) rather than after the send job's expiry. Holds the send lock
 * meanwhile; null when a live worker holds it (that worker reconciles in its own run).
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function reconcileAtStart(deps: AnchoringDeps): Promise<ReconcileSummary | null> {
  return deps.store.btcTxs.whileSending(() => reconcileSigned(deps));
}
