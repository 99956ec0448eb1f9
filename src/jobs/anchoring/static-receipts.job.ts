import { publishStaticReceipts } from '../../app/anchoring/publish-static-receipts.js';
import type { StaticReceiptDeps } from '../../app/anchoring/static-receipts.port.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';
import { NO_PAYLOAD } from '../no-payload.js';

export const PUBLISH_STATIC_RECEIPTS = 'receipts.publish-static';
/** A run stops after this much work and queues the next (well inside its expiry, like the batching jobs). */
const BUDGET_MS = 20_000;

/**
 * Writes the receipts of confirmed batches as static objects (STATIC_RECEIPTS_URL), once per transaction of
 * each batch, a singleton (one queued, one running): on its schedule (a batch is confirmed, or moved by a
 * reorg, when the confirmation job notices) and again at once while receipts are left.
 */
export function staticReceiptsJob(
  deps: AppDeps & { readonly staticReceipts: StaticReceiptDeps },
  everySeconds = 30,
): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: PUBLISH_STATIC_RECEIPTS,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 60,
    everySeconds,
    handle: async () => {
      const run = await publishStaticReceipts(deps, { budgetMs: BUDGET_MS });
      if (run.more) await deps.jobs.send(PUBLISH_STATIC_RECEIPTS, {}, { singletonKey: PUBLISH_STATIC_RECEIPTS });
    },
  };
}
