import { hashApiToken, verifyPassword } from '../core/crypto/password.js';
import type { Account } from './ports/account.port.js';
import type { AppDeps } from './deps.js';

/** A fixed scrypt hash checked when the login is unknown, so timing does not reveal which e-mails exist. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The account for an e-mail and password, or null. */
export async function authenticateBasic(deps: Pick<AppDeps, 'store'>, email: string, password: string): Promise<Account | null> {
  const account = await deps.store.accounts.findByEmail(email);
  const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH);
  return ok && account ? account : null;
}

/** The account of a live API token, or null; records when the token was last used (at most once a minute). */
export async function authenticateBearer(deps: Pick<AppDeps, 'store' | 'clock'>, token: string): Promise<Account | null> {
  const apiToken = await deps.store.tokens.findLiveByHash(hashApiToken(token));
  if (!apiToken) return null;
  await deps.store.tokens.touch(apiToken.id, deps.clock.now());
  return deps.store.accounts.findById(apiToken.accountId);
}
