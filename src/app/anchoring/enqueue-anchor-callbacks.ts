import { anchorView } from './anchor-view.js';
import type { AppDeps } from '../shared/deps.js';

/** The job queue of callback deliveries (definition in src/jobs/deliver-callback.job.ts). */
export const DELIVER_CALLBACK = 'callback.deliver';

/** One callback message; `messageId` is its `webhook-id`, kept across retries. */
export interface CallbackJobData {
  readonly messageId: string;
  readonly accountId: string;
  readonly anchorId: string;
  /** The anchor's JSON at the status change, the body sent on every attempt. */
  readonly payload: string;
}

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
