import { sequenceLog } from '../../app/transparency/sequence-log.js';
import type { TransparencyDeps } from '../../app/transparency/transparency.port.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';
import { NO_PAYLOAD } from '../no-payload.js';
import { PUBLISH_LOG } from './publish-log.job.js';

export const SEQUENCE_LOG = 'tlog.sequence';

/**
 * The transparency log's sequencer (docs/transparency-log.md): a singleton (one queued, one running) every
 * `everySeconds`, and again at once while entries are left after a run's limit, so a checkpoint is signed
 * every few seconds while entries arrive, and the log's files are written to the object store after a run that
 * appended (`tlog.publish`, when they are). Idempotent: a run is one transaction under the log's lock.
 */
export function sequenceLogJob(
  deps: AppDeps & { readonly transparency: TransparencyDeps },
  everySeconds = 2,
): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: SEQUENCE_LOG,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 2,
    retryDelaySeconds: 2,
    retryBackoff: true,
    expireInSeconds: 120,
    everySeconds,
    handle: async () => {
      const run = await sequenceLog(deps);
      if (run.more) await deps.jobs.send(SEQUENCE_LOG, {}, { singletonKey: SEQUENCE_LOG });
      // The new checkpoint and its tiles to the object store at once, when the log is written there.
      if (run.appended > 0 && deps.transparency.objects)
        await deps.jobs.send(PUBLISH_LOG, {}, { singletonKey: PUBLISH_LOG });
    },
  };
}
