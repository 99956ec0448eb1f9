import type { AnchoringDeps } from './anchoring-deps.js';

/**
 * The transactions of SENT batches when the node holds none of its batch's live transactions (neither
 * in its mempool nor in its chain): those anchors wait on a transaction no miner will see until the
 * confirm poll sends it again. Replaced and abandoned transactions are not looked at.
 * @throws DomainError CHAIN_UNAVAILABLE when the node cannot be reached
 */
export async function findUnkeptTransactions(deps: Pick<AnchoringDeps, 'store' | 'chain'>): Promise<string[]> {
  const unkept: string[] = [];
  for (const batch of await deps.store.batches.sent()) {
    const live = (await deps.store.btcTxs.ofBatch(batch.id)).filter(
      (t) => t.status !== 'REPLACED' && t.status !== 'ABANDONED',
    );
    const places = await Promise.all(live.map((t) => deps.chain.locateTransaction(t.txid)));
    if (places.every((p) => p === null)) unkept.push(...live.map((t) => t.txid));
  }
  return unkept;
}
