import { openSecret, sealSecret } from '../core/crypto/secret-box.js';
import { fail } from '../core/errors.js';
import type { AppDeps } from './deps.js';

/** secret-box purpose of callback secrets: a value sealed for it opens as nothing else. */
const PURPOSE = 'callback-secret';
/** Standard Webhooks form: `whsec_` + base64 of the key bytes (the HMAC key is the decoded bytes). */
const PREFIX = 'whsec_';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'>;

function secretKeyOf(deps: Pick<AppDeps, 'secretKey'>): string {
  return deps.secretKey;
}

async function createSecret(deps: Deps, accountId: string): Promise<string> {
  const secret = PREFIX + deps.random.bytes(32).toString('base64');
  const sealed = sealSecret(Buffer.from(secret, 'utf8'), secretKeyOf(deps), PURPOSE, deps.random.bytes(12));
  await deps.store.accounts.setCallbackSecret(accountId, sealed, deps.clock.now());
  return secret;
}

/** The account's callback secret, created on first use; kept only sealed (AES-GCM under SECRET_KEY). */
export async function getCallbackSecret(deps: Deps, input: { accountId: string }): Promise<string> {
  const account = (await deps.store.accounts.findById(input.accountId)) ?? fail('NOT_FOUND', 'no such account');
  if (account.callbackSecretSealed === null) return createSecret(deps, input.accountId);
  return Buffer.from(openSecret(account.callbackSecretSealed, secretKeyOf(deps), PURPOSE)).toString('utf8');
}

/** Replaces the account's callback secret; callbacks sent from now on are signed with the new one. */
export async function rotateCallbackSecret(deps: Deps, input: { accountId: string }): Promise<string> {
  return createSecret(deps, input.accountId);
}

/** The HMAC key of a `whsec_…` secret. */
export function callbackKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}
