import { openSecret } from '../../core/crypto/secret-box.js';
import { DomainError } from '../../core/errors.js';
import { chooseSmsSender } from '../../core/signature-requests/otp.js';
import type { AppDeps } from '../shared/deps.js';
import { SMS_BODY_PURPOSE, type SmsJobData } from './queue-sms.js';
import type { SmsRecord } from './sms-outbox.port.js';
import { SmsSendError, type SmsProvider } from './sms.port.js';

export type SmsDeliveryOutcome = 'sent' | 'kept' | 'dropped' | 'failed' | 'skipped';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'secretKey'> & { readonly sms?: SmsProvider };

/**
 * One delivery attempt of an outbox SMS. Idempotent and at most once: the row is claimed (QUEUED →
 * SENDING) before the provider is called, so a second run of the job finds it claimed and does not
 * send again; a row still SENDING (a crash mid-call) is marked FAILED, never resent. Without a
 * provider (SMS_URL unset) the SMS is KEPT in the store for the operator (`proofseal outbox sms`).
 * @throws DomainError DELIVERY_FAILED when the provider refused for now and tries are left: the job
 *   engine retries with backoff.
 */
export async function deliverSms(deps: Deps, input: SmsJobData & { maxAttempts: number }): Promise<SmsDeliveryOutcome> {
  const row = await deps.store.sms.findById(input.smsId);
  if (!row) return 'skipped';
  if (row.status === 'SENDING') {
    await fail(deps, row.id, 'lost while being handed to the provider: it may have it, so it is not sent again');
    return 'failed';
  }
  if (row.status !== 'QUEUED') return 'skipped';
  if (row.notAfter !== null && deps.clock.now() >= row.notAfter) {
    await deps.store.sms.settle(row.id, { status: 'DROPPED', error: 'no longer useful', eraseBody: true });
    return 'dropped';
  }
  if (!deps.sms) {
    await deps.store.sms.settle(row.id, { status: 'KEPT' });
    return 'kept';
  }
  const claimed = await deps.store.sms.claim(row.id);
  return claimed ? send(deps, deps.sms, claimed, input.maxAttempts) : 'skipped';
}

async function send(deps: Deps, provider: SmsProvider, row: SmsRecord, maxAttempts: number) {
  const from = chooseSmsSender({
    serviceName: row.senderName,
    number: provider.senderNumber,
    alphanumericSender: provider.alphanumericSender,
    to: row.to,
  });
  const body = Buffer.from(openSecret(row.bodySealed ?? '', deps.secretKey, SMS_BODY_PURPOSE)).toString('utf8');
  try {
    const { providerId } = await provider.send({ to: row.to, from, body });
    const sent = deps.clock.now();
    await deps.store.sms.settle(row.id, { status: 'SENT', providerId, sender: from, sent, eraseBody: true });
    return 'sent';
  } catch (err) {
    const e = err instanceof SmsSendError ? err : new SmsSendError(String(err), false, false);
    if (!e.notSent) {
      await fail(deps, row.id, `outcome unknown, not sent again: ${e.message}`, from);
      return 'failed';
    }
    if (e.retryable && row.attempts < maxAttempts) {
      await deps.store.sms.settle(row.id, { status: 'QUEUED', sender: from, error: e.message });
      throw new DomainError('DELIVERY_FAILED', `SMS ${row.id} not taken (attempt ${row.attempts}): ${e.message}`);
    }
    await fail(deps, row.id, e.message, from);
    return 'failed';
  }
}

function fail(deps: Deps, id: string, error: string, sender?: string): Promise<void> {
  return deps.store.sms.settle(id, { status: 'FAILED', error, sender, eraseBody: true });
}
