import { fail } from '../../../core/errors.js';
import { assertOtpTryable, OTP_RULES, otpCodeMatches } from '../../../core/signature-requests/otp.js';
import type { AppDeps } from '../../shared/deps.js';
import type { Store } from '../../shared/store.port.js';

/**
 * Checks the one-time password a signer gives against their latest code. Run it on the store outside
 * any transaction: a wrong try is counted (committed) even though the caller then fails. A try is
 * taken before the comparison and given back when the code is right, so parallel guesses never get
 * more than `OTP_RULES.maxWrongTries`. Success does not use the code up: {@link consumeOtp} does, in
 * the transaction that records what the code allowed.
 * @throws DomainError OTP_REQUIRED when no code is given; OTP_INVALID when it is wrong, was used, or
 *   none was issued; OTP_EXPIRED after 10 minutes; OTP_TOO_MANY_TRIES after 5 wrong tries.
 */
export async function verifyOtp(
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  input: { signerKey: string; otp: string | undefined },
): Promise<{ otpId: string }> {
  const given = input.otp?.trim();
  if (!given) fail('OTP_REQUIRED', 'this signer must give the one-time password sent by SMS ("otp")');
  const latest = await deps.store.otps.latestFor(input.signerKey);
  if (!latest) fail('OTP_INVALID', 'no one-time password was sent to this signer; ask for one');
  assertOtpTryable(deps.clock.now(), latest);
  const taken = await deps.store.otps.reserveTry(latest.id, OTP_RULES.maxWrongTries);
  if (taken === undefined) fail('OTP_TOO_MANY_TRIES', 'too many wrong one-time passwords; ask for a new one');
  if (otpCodeMatches(deps.secretKey, input.signerKey, given, latest.codeHash)) {
    await deps.store.otps.releaseTry(latest.id);
    return { otpId: latest.id };
  }
  const left = OTP_RULES.maxWrongTries - taken;
  fail('OTP_INVALID', `wrong one-time password; ${left} ${left === 1 ? 'try' : 'tries'} left`);
}

/**
 * Uses up a code checked by {@link verifyOtp}, in the caller's transaction: one use only.
 * @throws DomainError OTP_INVALID when the code was used already (or is unknown).
 */
export async function consumeOtp(tx: Store, otpId: string): Promise<void> {
  if (!(await tx.otps.consume(otpId))) fail('OTP_INVALID', 'this one-time password was used already');
}
