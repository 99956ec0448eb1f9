import { hashPassword } from '../../core/crypto/password.js';
import { createAccount } from './create-account.js';
import { createIdentityKey } from '../identity/create-identity-key.js';
import { createIdentityToken } from '../identity/create-identity-token.js';
import type { AppDeps } from '../shared/deps.js';
import type { IdentityDeps } from '../identity/identity-deps.js';
import { createApiToken } from './manage-api-tokens.js';

/** What the default run hands to the command line on its first start (kept in DATA_DIR/credentials.json). */
export interface LocalCredentials {
  readonly apiUrl: string;
  readonly identityUrl: string;
  readonly login: string;
  readonly password: string;
  readonly apiToken: string;
  readonly identityToken: string;
  readonly identityPubKey: string;
  readonly created: number;
}

/** The login of the account the default run creates for the local user. */
export const LOCAL_LOGIN = 'local@proofseal.localhost';
const CLAIM = 'bootstrap.default-run';

type Deps = IdentityDeps & Pick<AppDeps, 'jobs'>;

/**
 * First start of the default run: when the identity server has no key yet, creates one, a local account
 * with a random password, an API token for it and an identity API token, and returns them once (the
 * caller writes and prints them). Resolves null when a key exists or another process claimed the work.
 */
export async function bootstrapDefaultRun(
  deps: Deps,
  input: { apiUrl: string; identityUrl: string },
): Promise<LocalCredentials | null> {
  if ((await deps.store.identityKeys.count()) > 0) return null;
  const claim = deps.random.uuid();
  if ((await deps.store.settings.putIfAbsent(CLAIM, claim, deps.clock.now())) !== claim) return null;
  const key = await createIdentityKey(deps, { name: 'default', identity: { commonName: 'proofseal local seal' } });
  const password = deps.random.bytes(18).toString('base64url');
  const accountId = await localAccount(deps, password);
  const { token: apiToken } = await createApiToken(deps, { accountId, name: 'local (default run)' });
  const { token: identityToken } = await createIdentityToken(deps, { name: 'local (default run)' });
  return {
    apiUrl: input.apiUrl,
    identityUrl: input.identityUrl,
    login: LOCAL_LOGIN,
    password,
    apiToken,
    identityToken,
    identityPubKey: key.pubKey,
    created: deps.clock.now(),
  };
}

/**
 * The local account, created, or given the new password when an earlier bootstrap left one behind. It has no
 * names: a placeholder ("Local User") would be shown to signers as the requester; without names mails name the
 * account's e-mail until its owner sets real ones (PUT /v1/user).
 */
async function localAccount(deps: Deps, password: string): Promise<string> {
  const existing = await deps.store.accounts.findByEmail(LOCAL_LOGIN);
  if (!existing) return (await createAccount(deps, { email: LOCAL_LOGIN, password })).id;
  await deps.store.accounts.setPassword(
    existing.id,
    await hashPassword(password, deps.random.bytes(16)),
    deps.clock.now(),
  );
  return existing.id;
}
