import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';

/**
 * Revokes an identity key: from now on it never signs, and `/identity` reports it `revoked`.
 * @throws DomainError NOT_FOUND when no key has this pubKey; CONFLICT when it is already revoked
 */
export async function revokeIdentityKey(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  input: { pubKey: string },
): Promise<void> {
  if (await deps.store.identityKeys.revoke(input.pubKey, deps.clock.now())) return;
  const key = await deps.store.identityKeys.findByPubKey(input.pubKey);
  if (!key) fail('NOT_FOUND', `no identity key ${input.pubKey}`);
  fail('CONFLICT', `identity key ${input.pubKey} is already revoked`);
}
