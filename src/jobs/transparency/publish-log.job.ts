import { publishLog, type PublishLogDeps } from '../../app/transparency/publish-log.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';
import { NO_PAYLOAD } from '../no-payload.js';

export const PUBLISH_LOG = 'tlog.publish';
/** A run stops after this much work and queues the next (well inside its expiry). */
const BUDGET_MS = 20_000;

/**
 * Writes the transparency log's files to the object store beside the static receipts (docs/transparency-log.md),
 * a singleton (one queued, one running): sent by the sequencer after each run that appended, on its own
 * schedule too (a write that failed is done again), and again at once while a backlog is left.
 */
export function publishLogJob(deps: AppDeps & PublishLogDeps, everySeconds = 30): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: PUBLISH_LOG,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    everySeconds,
    handle: async () => {
      const run = await publishLog(deps, { budgetMs: BUDGET_MS });
      if (run.more) await deps.jobs.send(PUBLISH_LOG, {}, { singletonKey: PUBLISH_LOG });
    },
  };
}
