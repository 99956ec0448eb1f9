/**
 * One-time passwords around a signature: sent on the signer's demand, checked before the signing
 * transaction or at its start (a wrong try is counted, committed, even though the signature fails), used
 * up inside it.
 */
import { fail } from '../../core/errors.js';
import { assertOtpTryable } from '../../core/signature-requests/otp.js';
import { normaliseSmsPhone } from '../../core/signature-requests/phone.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { recordEvent, signerActor, type Origin } from './audit.js';
import { issueOtp } from './otp/issue-otp.js';
import { consumeOtp, verifyOtp } from './otp/verify-otp.js';
import { assertSignerOpen } from './record-signature.js';
import { findSigner } from './signer-secrets.js';
import type { Signer } from './signature-request.port.js';

/** The sender name of SMS when neither the request's vars (`serviceName`) nor SERVICE_NAME give one. */
const DEFAULT_SERVICE_NAME = 'proofseal';

/**
 * Sends a one-time password by SMS to a signer who needs one (valid 10 minutes); the code, its SMS and
 * the OTP_SENT event commit together.
 * @throws DomainError NOT_FOUND (bad signer secret), VALIDATION_FAILED (this signer needs no OTP), ALREADY_SIGNED,
 *   ALREADY_DECLINED,
 *   SIGNING_CLOSED, OTP_TOO_SOON / OTP_LIMIT_REACHED (429, Retry-After)
 */
export async function sendSignerOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail'>,
  input: { id: string; signerSecret: string; origin?: Origin },
): Promise<{ expiresAt: number }> {
  return deps.store.transaction(async (tx) => {
    const { request, signer } = await findSigner(
      { store: tx, secretKey: deps.secretKey },
      { requestId: input.id, signerSecret: input.signerSecret, lock: true },
    );
    if (!signer.requiresOtp || signer.phone === null || signer.countryCallingCode === null)
      fail('VALIDATION_FAILED', 'this signer signs without a one-time password');
    assertSignerOpen(signer);
    if (request.state !== 'IN_PROGRESS') fail('SIGNING_CLOSED', `the request is ${request.state}, not IN_PROGRESS`);
    const serviceName = request.vars?.serviceName;
    const sent = await issueOtp(
      { ...deps, store: tx },
      {
        signerKey: signer.id,
        phone: normaliseSmsPhone(signer.countryCallingCode, signer.phone).e164,
        serviceName:
          typeof serviceName === 'string' && serviceName !== ''
            ? serviceName
            : (deps.mail?.serviceName ?? DEFAULT_SERVICE_NAME),
        lang: signer.lang ?? request.lang ?? 'en',
      },
    );
    const date = deps.clock.now();
    await recordEvent(tx, request.id, {
      type: 'OTP_SENT',
      date,
      actor: signerActor(signer),
      signer: signer,
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
export async function checkSignerOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  signer: Signer,
  otp: string | undefined,
): Promise<string | null> {
  if (!signer.requiresOtp) return null;
  return (await verifyOtp(deps, { signerKey: signer.id, otp })).otpId;
}

/**
 * Checks again, in the signing transaction, a code found right before it (by {@link checkSignerOtp}, outside
 * it): still the signer's latest, unused, unexpired, and not locked by wrong tries made since. Nothing is
 * counted: the code was right.
 * @throws DomainError OTP_INVALID (a newer code was sent, or this one was used), OTP_EXPIRED, OTP_TOO_MANY_TRIES
 */
export async function recheckSignerOtp(
  deps: Pick<AppDeps, 'store'>,
  signer: Signer,
  otpId: string | null,
  now: number,
): Promise<void> {
  if (otpId === null) return;
  const latest = await deps.store.otps.latestFor(signer.id);
  if (latest?.id !== otpId) fail('OTP_INVALID', 'a newer one-time password was sent to this signer; give that one');
  assertOtpTryable(now, latest);
}

/**
 * Uses up the one-time password inside the signing transaction (once only) and records OTP_AUTH.
 * @throws DomainError OTP_INVALID when it was used already
 */
export async function consumeSignerOtp(
  tx: Store,
  input: { requestId: string; signer: Signer; otpId: string | null; now: number; origin?: Origin },
): Promise<void> {
  if (input.otpId === null) return;
  await consumeOtp(tx, input.otpId);
  await recordEvent(tx, input.requestId, {
    type: 'OTP_AUTH',
    date: input.now,
    actor: signerActor(input.signer),
    signer: input.signer,
    origin: input.origin,
  });
}
