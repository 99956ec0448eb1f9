import { deliverEmail, type DeliverEmailDeps } from '../../app/mail/deliver-email.js';
import { DELIVER_EMAIL, type DeliverEmailJob } from '../../app/mail/queue-email.js';
import { Type } from '@sinclair/typebox';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

/** {@link DeliverEmailJob} as queued by queueEmail. */
const DELIVER_EMAIL_JOB = Type.Object({ emailId: Type.String({ minLength: 1 }) }, { additionalProperties: false });

/**
 * Mails one worker process sends at once: while one waits on the SMTP server's answers, others are sent (the
 * SMTP mailer keeps as many pooled connections). The order between accounts is the jobs' priority (queueEmails).
 */
export const MAIL_CONCURRENCY = 4;

/**
 * Delivers one queued mail; a failed attempt is retried with exponential backoff: from d = 30 s, 12 retries
 * span at least 30·(2^12 − 1) s ≈ 34 hours, so an SMTP outage of a day loses nothing.
 */
export function deliverEmailJob(
  deps: DeliverEmailDeps,
  retry = { limit: 12, delaySeconds: 30 },
): JobDefinition<typeof DELIVER_EMAIL_JOB> {
  return {
    name: DELIVER_EMAIL,
    schema: DELIVER_EMAIL_JOB,
    policy: 'any-number',
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryBackoff: true,
    expireInSeconds: 120,
    concurrency: MAIL_CONCURRENCY,
    handle: async (data: DeliverEmailJob) => {
      await deliverEmail(deps, data);
    },
  };
}
