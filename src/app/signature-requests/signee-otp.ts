/**
 * One-time passwords around a signature: checked before the signing transaction (so a wrong try is
 * counted even though the signature fails), used up inside it.
 */
import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import type { Signee } from './signature-request.port.js';

/**
 * The id of the valid one-time password the signer gave, or null when the signer needs none.
 * @throws DomainError NOT_READY: one-time passwords are not available on this server yet
 */
export async function checkSigneeOtp(
  _deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  signee: Signee,
  _otp: string | undefined,
): Promise<string | null> {
  if (!signee.requiresOtp) return null;
  fail('NOT_READY', 'this signer needs a one-time password, which this server cannot check yet');
}

/** Uses up the one-time password inside the signing transaction (once only). */
export async function consumeSigneeOtp(_tx: Store, otpId: string | null): Promise<void> {
  if (otpId === null) return;
  fail('NOT_READY', 'one-time passwords are not available on this server yet');
}
