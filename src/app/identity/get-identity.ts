import { fail } from '../../core/errors.js';
import { identityKeyStatus, identityUrlOf, type IdentityKeyStatus } from '../../core/identity/key-status.js';
import type { IdentityDeps } from './identity-deps.js';
import type { KeyIdentity } from './identity.port.js';
import { signWithKey } from './sign-hash.js';

export interface IdentityView {
  readonly identity: KeyIdentity;
  readonly key: { name: string; pubKey: string; status: IdentityKeyStatus; expiration?: number; revokedAt?: number };
  /** With `leftData`: identity URL + "." + random hex, chosen by the server. */
  readonly rightData?: string;
  /** With `leftData`: signed message of leftData + rightData, made by the key. */
  readonly signature?: string;
}

export const MAX_LEFT_DATA = 1024;

/**
 * The identity and status of a key (the newest live one when no pubKey is given). With `leftData`, a
 * proof that this server holds the key: it appends its own random `rightData` (starting with the key's
 * identity URL, so the proof cannot be replayed as another server's) and signs the concatenation.
 * A revoked or expired key makes no proof: the answer then only reports its status.
 * @throws DomainError NOT_FOUND for an unknown key; VALIDATION_FAILED for an empty or too long leftData
 */
export async function getIdentity(
  deps: IdentityDeps,
  input: { pubKey?: string; leftData?: string },
): Promise<IdentityView> {
  const now = deps.clock.now();
  const key =
    input.pubKey === undefined
      ? await deps.store.identityKeys.findNewestLive(now)
      : await deps.store.identityKeys.findByPubKey(input.pubKey);
  if (!key)
    fail(
      'NOT_FOUND',
      input.pubKey === undefined ? 'the identity server has no live key' : `no identity key ${input.pubKey}`,
    );
  const status = identityKeyStatus(key, now);
  const view: IdentityView = {
    identity: key.identity,
    key: {
      name: key.name,
      pubKey: key.pubKey,
      status,
      ...(key.expiration !== null ? { expiration: key.expiration } : {}),
      ...(key.revokedAt !== null ? { revokedAt: key.revokedAt } : {}),
    },
  };
  if (input.leftData === undefined || status !== 'valid') return view;
  if (input.leftData.length === 0 || input.leftData.length > MAX_LEFT_DATA)
    fail('VALIDATION_FAILED', `"leftData" must be 1 to ${MAX_LEFT_DATA} characters`);
  const rightData = `${identityUrlOf(deps.identity.publicUrl, key.pubKey)}.${deps.random.bytes(16).toString('hex')}`;
  return { ...view, rightData, signature: signWithKey(deps, key, input.leftData + rightData) };
}
