import { sealSecret } from '../../core/crypto/secret-box.js';
import type { AppDeps } from '../shared/deps.js';

/** The delivery job of an outbox SMS (`src/jobs/sms/`). */
export const DELIVER_SMS = 'deliver-sms';
/** secret-box purpose of SMS bodies at rest. */
export const SMS_BODY_PURPOSE = 'sms-body';

export interface SmsJobData {
  readonly smsId: string;
}

/**
 * Puts one SMS in the outbox: a row in the store and its delivery job, both through `deps.store` — give
 * it a transaction's store and the SMS exists, and will be sent, only if that transaction commits.
 * The body is stored sealed under SECRET_KEY, since it may carry a one-time password.
 */
export async function queueSms(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'>,
  input: { to: string; senderName: string; body: string; purpose: string; notAfter?: number },
): Promise<{ smsId: string }> {
  const smsId = deps.random.uuid();
  const bodySealed = sealSecret(
    Buffer.from(input.body, 'utf8'),
    deps.secretKey,
    SMS_BODY_PURPOSE,
    deps.random.bytes(12),
  );
  await deps.store.sms.insert({
    id: smsId,
    to: input.to,
    senderName: input.senderName,
    bodySealed,
    purpose: input.purpose,
    status: 'QUEUED',
    attempts: 0,
    providerId: null,
    sender: null,
    lastError: null,
    created: deps.clock.now(),
    notAfter: input.notAfter ?? null,
    sent: null,
  });
  const data: SmsJobData = { smsId };
  await deps.store.jobs.send(DELIVER_SMS, data, { singletonKey: smsId });
  return { smsId };
}
