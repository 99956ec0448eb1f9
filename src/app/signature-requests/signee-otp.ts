/**
 * One-time passwords around a signature: sent on the signer's demand, checked before the signing
 * transaction (so a wrong try is counted even though the signature fails), used up inside it.
 */
import { fail } from '../../core/errors.js';
import { normaliseSmsPhone } from '../../core/signature-requests/phone.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { recordEvent, signeeActor, type Origin } from './audit.js';
import { issueOtp } from './otp/issue-otp.js';
import { consumeOtp, verifyOtp } from './otp/verify-otp.js';
import { assertSignerOpen } from './record-signature.js';
import { findSignee } from './signee-secrets.js';
import type { Signee } from './signature-request.port.js';

/** The sender name of SMS when neither the request's vars (`serviceName`) nor SERVICE_NAME give one. */
const DEFAULT_SERVICE_NAME = 'proofseal';

/**
 * Sends a one-time password by SMS to a signer who needs one (valid 10 minutes); the code, its SMS and
 * the OTP_SENT event commit together.
 * @throws DomainError NOT_FOUND (bad signeeId), VALIDATION_FAILED (this signer needs no OTP), ALREADY_SIGNED,
 *   ALREADY_DECLINED,
 *   SIGNING_CLOSED, OTP_TOO_SOON / OTP_LIMIT_REACHED (429, Retry-After)
 */
export async function sendSigneeOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail'>,
  input: { id: string; signeeId: string; origin?: Origin },
): Promise<{ expiresAt: number }> {
  return deps.store.transaction(async (tx) => {
    const { request, signee } = await findSignee(
      { store: tx, secretKey: deps.secretKey },
      { requestId: input.id, signeeId: input.signeeId, lock: true },
    );
    if (!signee.requiresOtp || signee.phone === null || signee.countryCallingCode === null)
      fail('VALIDATION_FAILED', 'this signer signs without a one-time password');
    await assertSignerOpen(tx, signee);
    if (request.state !== 'IN_PROGRESS') fail('SIGNING_CLOSED', `the request is ${request.state}, not IN_PROGRESS`);
    const serviceName = request.vars?.serviceName;
    const sent = await issueOtp(
      { ...deps, store: tx },
      {
        signerKey: signee.id,
        phone: normaliseSmsPhone(signee.countryCallingCode, signee.phone).e164,
        serviceName:
          typeof serviceName === 'string' && serviceName !== ''
            ? serviceName
            : (deps.mail?.serviceName ?? DEFAULT_SERVICE_NAME),
        lang: signee.lang ?? request.lang ?? 'en',
      },
    );
    const date = deps.clock.now();
    await recordEvent(tx, request.id, {
      type: 'OTP_SENT',
      date,
      actor: signeeActor(signee),
      signee,
      origin: input.origin,
    });
    return sent;
  });
}

/**
 * The id of the valid one-time password the signer gave, or null when the signer needs none. A wrong try
 * is counted on `deps.store`: outside a transaction, or in one the caller commits after the refusal.
 * @throws DomainError OTP_REQUIRED, OTP_INVALID, OTP_EXPIRED, OTP_TOO_MANY_TRIES
 */
export async function checkSigneeOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  signee: Signee,
  otp: string | undefined,
): Promise<string | null> {
  if (!signee.requiresOtp) return null;
  return (await verifyOtp(deps, { signerKey: signee.id, otp })).otpId;
}

/**
 * Uses up the one-time password inside the signing transaction (once only) and records OTP_AUTH.
 * @throws DomainError OTP_INVALID when it was used already
 */
export async function consumeSigneeOtp(
  tx: Store,
  input: { requestId: string; signee: Signee; otpId: string | null; now: number; origin?: Origin },
): Promise<void> {
  if (input.otpId === null) return;
  await consumeOtp(tx, input.otpId);
  await recordEvent(tx, input.requestId, {
    type: 'OTP_AUTH',
    date: input.now,
    actor: signeeActor(input.signee),
    signee: input.signee,
    origin: input.origin,
  });
}
