import { deliverEmail, type DeliverEmailDeps } from '../../app/mail/deliver-email.js';
import { DELIVER_EMAIL, type DeliverEmailJob } from '../../app/mail/queue-email.js';
import type { JobDefinition } from '../job-definition.js';

/**
 * Delivers one queued mail; a failed attempt is retried with exponential backoff: from d = 30 s, 12 retries
 * span at least 30·(2^12 − 1) s ≈ 34 hours, so an SMTP outage of a day loses nothing.
 */
export function deliverEmailJob(
  deps: DeliverEmailDeps,
  retry = { limit: 12, delaySeconds: 30 },
): JobDefinition<DeliverEmailJob> {
  return {
    name: DELIVER_EMAIL,
    policy: 'standard',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryBackoff: true,
    expireInSeconds: 120,
    handle: async (data) => {
      await deliverEmail(deps, data);
    },
  };
}
