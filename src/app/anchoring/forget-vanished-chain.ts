import type { AnchoringDeps } from './anchoring-deps.js';
import { enqueueAnchorCallbacks } from './enqueue-anchor-callbacks.js';

/** The `setting` that names the embedded chain the store's Bitcoin state belongs to. */
export const EMBEDDED_CHAIN_SETTING = 'bitcoin.embedded-chain';

/**
 * The embedded regtest node keeps its chain beside the embedded store, or in memory (with PostgreSQL), and
 * a chain in memory is new at each start while the store persists; so is a chain whose directory was
 * removed. When the store's Bitcoin state belongs to another chain (identified by its block 1 hash),
 * it refers to coins and transactions that no longer exist: every coin is dropped, every transaction
 * still pending is ABANDONED and its batch goes back to WAIT, to be anchored on the new chain.
 * CONFIRMED batches are left as they are (their receipts name the vanished chain).
 * @returns the batches put back to WAIT, or null when the chain is the one already recorded
 */
export async function forgetVanishedChain(
  deps: Pick<AnchoringDeps, 'store' | 'clock'>,
  input: { chainId: string },
): Promise<string[] | null> {
  const now = deps.clock.now();
  const recorded = await deps.store.settings.get(EMBEDDED_CHAIN_SETTING);
  if (recorded === input.chainId) return null;
  return deps.store.transaction(async (tx) => {
    for (const status of ['available', 'reserved'] as const)
      await tx.utxos.setStatus(await tx.utxos.list(status), 'abandoned');
    for (const status of ['SIGNED', 'BROADCAST'] as const) {
      for (const t of await tx.btcTxs.withStatus(status)) await tx.btcTxs.setStatus(t.txid, 'ABANDONED', now);
    }
    const sent = await tx.batches.sent();
    for (const b of sent) {
      for (const t of await tx.btcTxs.ofBatch(b.id)) await tx.btcTxs.setStatus(t.txid, 'ABANDONED', now);
      await tx.batches.resetToWait(b.id, now);
      await enqueueAnchorCallbacks(tx, { batchId: b.id });
    }
    await tx.settings.put(EMBEDDED_CHAIN_SETTING, input.chainId, now);
    return sent.map((b) => b.id);
  });
}
