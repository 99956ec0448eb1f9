import {
  assertOtpMayBeIssued,
  hashOtpCode,
  newOtpCode,
  OTP_RULES,
  otpLimitWindowStart,
  otpSmsText,
} from '../../../core/signature-requests/otp.js';
import { normaliseE164 } from '../../../core/signature-requests/phone.js';
import type { AppDeps } from '../../shared/deps.js';
import type { Store } from '../../shared/store.port.js';
import { queueSms } from '../../sms/queue-sms.js';

/**
 * Issues a one-time password to a signer and queues the SMS that carries it, through the store it is
 * given: pass a transaction's store and the code, its SMS and the caller's audit event commit together.
 * The code itself is kept only as a keyed hash (and, until delivered, sealed in the SMS outbox).
 * Rules (`OTP_RULES`): valid 10 minutes; a new code no sooner than 60 s after the signer's last one;
 * at most 5 codes per signer and 10 per phone number in any hour. A new code replaces the previous one.
 * The phone is normalised first (libphonenumber-js): the SMS goes to, and every limit counts on, the one
 * E.164 form of the number, whatever spelling the caller gave.
 * @throws DomainError INVALID_PHONE when `phone` is not an E.164 number that can receive SMS; OTP_TOO_SOON (Retry-After) within 60 s
 *   of the last code; OTP_LIMIT_REACHED (Retry-After) when an hourly limit is used up.
 */
export async function issueOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'>,
  input: { signerKey: string; phone: string; serviceName: string; lang: string },
): Promise<{ expiresAt: number }> {
  const phone = normaliseE164(input.phone).e164;
  const { store, clock } = deps;
  await store.otps.lockSigner(input.signerKey);
  const now = clock.now();
  await assertMayIssue(store, now, { signerKey: input.signerKey, phone });
  const code = newOtpCode((n) => deps.random.bytes(n));
  const expiresAt = now + OTP_RULES.validMs;
  await store.otps.insert({
    id: deps.random.uuid(),
    signerKey: input.signerKey,
    phone,
    codeHash: hashOtpCode(deps.secretKey, input.signerKey, code),
    created: now,
    expires: expiresAt,
    wrongTries: 0,
    consumed: false,
  });
  await queueSms(deps, {
    to: phone,
    senderName: input.serviceName,
    body: otpSmsText(input.lang, code, input.serviceName),
    purpose: 'otp',
    notAfter: expiresAt,
  });
  return { expiresAt };
}

async function assertMayIssue(store: Store, now: number, input: { signerKey: string; phone: string }) {
  const since = otpLimitWindowStart(now);
  // One after another: inside a transaction the three share one connection.
  const latest = await store.otps.latestFor(input.signerKey);
  const signer = await store.otps.countForSigner(input.signerKey, since);
  const phone = await store.otps.countForPhone(input.phone, since);
  assertOtpMayBeIssued(now, { lastIssuedToSigner: latest?.created, signer, phone });
}
