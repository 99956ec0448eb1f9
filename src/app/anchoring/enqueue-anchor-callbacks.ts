import { anchorView } from './anchor-view.js';
import type { AppDeps } from '../shared/deps.js';
import { DELIVER_CALLBACK, type CallbackJobData } from '../callbacks/callback.port.js';

export { DELIVER_CALLBACK, type CallbackJobData };

/**
 * Queues one callback per anchor of the batch that has a callbackURL, carrying the anchor as it is now.
 * Called by the batching jobs after they change a batch's status; calling it twice for the same status
 * queues nothing new while the first messages are pending (keyed by anchor and status).
 * @returns how many messages were queued
 */
export async function enqueueAnchorCallbacks(
  deps: Pick<AppDeps, 'store' | 'jobs'>,
  input: { batchId: string },
): Promise<number> {
  const anchors = await deps.store.anchors.withCallbackInBatch(input.batchId);
  let queued = 0;
  for (const a of anchors) {
    const data: CallbackJobData = {
      messageId: `msg_${a.id}_${a.status}`,
      accountId: a.accountId,
      anchorId: a.id,
      payload: JSON.stringify(anchorView(a)),
    };
    if (await deps.jobs.send(DELIVER_CALLBACK, data, { singletonKey: `${a.id}:${a.status}` })) queued += 1;
  }
  return queued;
}
