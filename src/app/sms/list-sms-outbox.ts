import { openSecret } from '../../core/crypto/secret-box.js';
import type { AppDeps } from '../shared/deps.js';
import { SMS_BODY_PURPOSE } from './queue-sms.js';
import type { SmsStatus } from './sms-outbox.port.js';

/** An outbox SMS as the operator sees it; `body` is null once erased (delivered, failed or dropped). */
export interface SmsOutboxEntry {
  readonly id: string;
  readonly created: number;
  readonly to: string;
  readonly purpose: string;
  readonly status: SmsStatus;
  readonly attempts: number;
  readonly sender: string | null;
  readonly providerId: string | null;
  readonly lastError: string | null;
  readonly body: string | null;
}

/**
 * The most recent outbox SMS, bodies opened with SECRET_KEY: in the default run (no SMS_URL) this is
 * where a one-time password can be read. An operator command only; no route shows it.
 * @throws DomainError UNAUTHORIZED when a body does not open (SECRET_KEY changed).
 */
export async function listSmsOutbox(
  deps: Pick<AppDeps, 'store' | 'secretKey'>,
  input: { limit: number },
): Promise<SmsOutboxEntry[]> {
  const rows = await deps.store.sms.list({ limit: input.limit });
  return rows.map((r) => ({
    id: r.id,
    created: r.created,
    to: r.to,
    purpose: r.purpose,
    status: r.status,
    attempts: r.attempts,
    sender: r.sender,
    providerId: r.providerId,
    lastError: r.lastError,
    body:
      r.bodySealed === null
        ? null
        : Buffer.from(openSecret(r.bodySealed, deps.secretKey, SMS_BODY_PURPOSE)).toString('utf8'),
  }));
}
