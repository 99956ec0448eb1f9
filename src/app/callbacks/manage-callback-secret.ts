import { openSecret, sealSecret } from '../../core/crypto/secret-box.js';
import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';

/** secret-box purpose of callback secrets: a value sealed for it opens as nothing else. */
const PURPOSE = 'callback-secret';
/** Standard Webhooks form: `whsec_` + base64 of the key bytes (the HMAC key is the decoded bytes). */
const PREFIX = 'whsec_';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'>;

function newSealedSecret(deps: Deps): string {
  const secret = PREFIX + deps.random.bytes(32).toString('base64');
  return sealSecret(Buffer.from(secret, 'utf8'), deps.secretKey, PURPOSE, deps.random.bytes(12));
}

function open(deps: Deps, sealed: string): string {
  return Buffer.from(openSecret(sealed, deps.secretKey, PURPOSE)).toString('utf8');
}

/**
 * The account's callback secret, created on first use; kept only sealed (AES-GCM under SECRET_KEY).
 * Two first calls at once agree on one secret: only the first write of an absent secret wins.
 */
export async function getCallbackSecret(deps: Deps, input: { accountId: string }): Promise<string> {
  const account = (await deps.store.accounts.findById(input.accountId)) ?? fail('NOT_FOUND', 'no such account');
  if (account.callbackSecretSealed !== null) return open(deps, account.callbackSecretSealed);
  return open(
    deps,
    await deps.store.accounts.setCallbackSecretIfAbsent(input.accountId, newSealedSecret(deps), deps.clock.now()),
  );
}

/** Replaces the account's callback secret; callbacks sent from now on are signed with the new one. */
export async function rotateCallbackSecret(deps: Deps, input: { accountId: string }): Promise<string> {
  const sealed = newSealedSecret(deps);
  await deps.store.accounts.setCallbackSecret(input.accountId, sealed, deps.clock.now());
  return open(deps, sealed);
}

/** The HMAC key of a `whsec_…` secret. */
export function callbackKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}
