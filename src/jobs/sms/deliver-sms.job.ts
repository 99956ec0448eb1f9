import { deliverSms } from '../../app/sms/deliver-sms.js';
import { Type } from '@sinclair/typebox';
import { DELIVER_SMS } from '../../app/sms/queue-sms.js';
import type { AppDeps } from '../../app/shared/deps.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

/** The `SmsJobData` queued by queueSms. */
const SMS_JOB_DATA = Type.Object({ smsId: Type.String({ minLength: 1 }) }, { additionalProperties: false });

/**
 * Delivers one outbox SMS. A refusal that may pass (provider down, rate limited) is retried with
 * exponential backoff: from d = 5 s, 5 retries wait at least 5+10+20+40+80 s, about 2.5 minutes, well
 * inside the 10-minute life of the code an SMS usually carries (an expired one is dropped, not sent).
 */
export function deliverSmsJob(
  deps: AppDeps,
  opts: { retryDelaySeconds?: number } = {},
): JobDefinition<typeof SMS_JOB_DATA> {
  const retryLimit = 5;
  return {
    name: DELIVER_SMS,
    schema: SMS_JOB_DATA,
    policy: 'any-number',
    retryLimit,
    retryDelaySeconds: opts.retryDelaySeconds ?? 5,
    retryBackoff: true,
    expireInSeconds: 60,
    handle: async (data) => {
      await deliverSms(deps, { smsId: data.smsId, maxAttempts: retryLimit + 1 });
    },
  };
}
