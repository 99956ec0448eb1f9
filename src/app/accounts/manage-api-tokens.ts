import { formatApiToken, hashApiToken } from '../../core/crypto/password.js';
import { fail } from '../../core/errors.js';
import type { ApiToken } from './account.port.js';
import type { AppDeps } from '../shared/deps.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random'>;

/** Creates an API token for an account; the clear token is returned once and only its hash is kept. */
export async function createApiToken(
  deps: Deps,
  input: { accountId: string; name?: string },
): Promise<{ token: string; apiToken: ApiToken }> {
  const token = formatApiToken(deps.random.bytes(32));
  const apiToken: ApiToken = {
    id: deps.random.uuid(),
    accountId: input.accountId,
    name: input.name ?? '',
    created: deps.clock.now(),
    lastUsed: null,
    revokedAt: null,
  };
  await deps.store.tokens.insert(apiToken, hashApiToken(token));
  return { token, apiToken };
}

/** Creates a token for the account with this e-mail (operators). Throws NOT_FOUND for an unknown e-mail. */
export async function createApiTokenForEmail(
  deps: Deps,
  input: { email: string; name?: string },
): Promise<{ token: string; apiToken: ApiToken }> {
  const account = await deps.store.accounts.findByEmail(input.email);
  if (!account) fail('NOT_FOUND', `no account with e-mail ${input.email}`);
  return createApiToken(deps, { accountId: account.id, name: input.name });
}

/** The account's live tokens, without their secrets (only hashes are kept anyway). */
export async function listApiTokens(deps: Pick<AppDeps, 'store'>, input: { accountId: string }): Promise<ApiToken[]> {
  return (await deps.store.tokens.listByAccount(input.accountId)).filter((t) => t.revokedAt === null);
}

/**
 * Revokes a token given in clear (or by id, for operators). `accountId` null means any account (operator).
 * Throws NOT_FOUND when nothing live matched, including another account's token.
 */
export async function revokeApiToken(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  input: { accountId: string | null; token?: string; id?: string },
): Promise<void> {
  if (!input.token && !input.id) fail('VALIDATION_FAILED', 'give the token to revoke');
  const match = { tokenHash: input.token ? hashApiToken(input.token) : undefined, id: input.id };
  if (!(await deps.store.tokens.revoke(input.accountId, match, deps.clock.now())))
    fail('NOT_FOUND', 'no such live token');
}
