import { anchorView } from './anchor-view.js';
import type { JobQueue } from '../shared/jobs.port.js';
import type { Store } from '../shared/store.port.js';
import { DELIVER_CALLBACK, type CallbackJobData } from '../callbacks/callback.port.js';

export { DELIVER_CALLBACK, type CallbackJobData };

/**
 * Queues one callback per anchor of the batch that has a callbackURL, carrying the anchor as it is now.
 * Give it the transaction that changes the batch's status (`store.transaction((tx) => …)`): the
 * messages are queued in that transaction, so they exist exactly when the status change does; a crash
 * right after the commit loses none, and a job that runs again finds the change made and queues nothing.
 * Each message is keyed by anchor and status (`messageId`, the `webhook-id` receivers dedupe on).
 * @returns how many messages were queued
 */
export async function enqueueAnchorCallbacks(
  tx: Pick<Store, 'anchors'> & { readonly jobs: JobQueue },
  input: { batchId: string },
): Promise<number> {
  const anchors = await tx.anchors.withCallbackInBatch(input.batchId);
  let queued = 0;
  for (const a of anchors) {
    const data: CallbackJobData = {
      messageId: `msg_${a.id}_${a.status}`,
      accountId: a.accountId,
      anchorId: a.id,
      payload: JSON.stringify(anchorView(a)),
    };
    if (await tx.jobs.send(DELIVER_CALLBACK, data, { singletonKey: `${a.id}:${a.status}` })) queued += 1;
  }
  return queued;
}
