import type { AppDeps } from '../shared/deps.js';

/** What a monitor needs to see that batching stalled (a worker down, a close stuck, no funds). */
export interface BatchingHealth {
  /** Whole seconds the oldest anchor not yet sent has waited; null when none waits. */
  readonly oldestWaitingAnchorAgeSeconds: number | null;
  /** When the last non-empty batch was closed (ms since the epoch); null before the first. */
  readonly lastBatchClosedAt: number | null;
}

/**
 * Reads how long anchors have been waiting and when a batch last closed. Anchors wait at most about
 * BATCH_INTERVAL_SECONDS in normal running, so an age well past it means batching or sending stalled.
 * @throws Error when the store cannot be read
 */
export async function getBatchingHealth(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<BatchingHealth> {
  const state = await deps.store.batches.batchingState();
  const age = state.oldestWaitingCreated === null ? null : (deps.clock.now() - state.oldestWaitingCreated) / 1000;
  return {
    oldestWaitingAnchorAgeSeconds: age === null ? null : Math.max(0, Math.floor(age)),
    lastBatchClosedAt: state.lastClosed,
  };
}
