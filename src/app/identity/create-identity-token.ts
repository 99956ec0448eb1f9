import { formatApiToken, hashApiToken } from '../../core/crypto/password.js';
import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { IdentityToken } from './identity.port.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random'>;

/** Creates a bearer token of the identity server's `/sign`; the clear token is returned once, its hash kept. */
export async function createIdentityToken(
  deps: Deps,
  input: { name?: string } = {},
): Promise<{ token: string; identityToken: IdentityToken }> {
  const name = input.name ?? '';
  if (name.length > 100) fail('VALIDATION_FAILED', '"name" must be at most 100 characters');
  const token = formatApiToken(deps.random.bytes(32));
  const identityToken: IdentityToken = {
    id: deps.random.uuid(),
    name,
    created: deps.clock.now(),
    lastUsed: null,
    revokedAt: null,
  };
  await deps.store.identityTokens.insert(identityToken, hashApiToken(token));
  return { token, identityToken };
}

/**
 * Revokes an identity token given in clear or by id.
 * @throws DomainError NOT_FOUND when nothing live matched
 */
export async function revokeIdentityToken(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  input: { token?: string; id?: string },
): Promise<void> {
  if (!input.token && !input.id) fail('VALIDATION_FAILED', 'give the identity token to revoke');
  const match = { tokenHash: input.token ? hashApiToken(input.token) : undefined, id: input.id };
  if (!(await deps.store.identityTokens.revoke(match, deps.clock.now())))
    fail('NOT_FOUND', 'no such live identity token');
}

/** The live identity token given in clear, or null; records its use. */
export async function authenticateIdentityToken(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  token: string,
): Promise<IdentityToken | null> {
  const found = await deps.store.identityTokens.findLiveByHash(hashApiToken(token));
  if (found) await deps.store.identityTokens.touch(found.id, deps.clock.now());
  return found;
}
