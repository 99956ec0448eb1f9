import { hashApiToken, verifyPassword } from '../../core/crypto/password.js';
import type { Account } from './account.port.js';
import type { AppDeps } from '../shared/deps.js';

/** A fixed scrypt hash checked when the login is unknown, so timing does not reveal which e-mails exist. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The account for an e-mail and password, or null. */
export async function authenticateBasic(
  deps: Pick<AppDeps, 'store'>,
  email: string,
  password: string,
): Promise<Account | null> {
  const account = await deps.store.accounts.findByEmail(email);
  const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH);
  return ok && account ? account : null;
}

/** How stale a token's `lastUsed` may get before it is written again. */
const TOUCH_EVERY_MS = 60_000;

/** The account of a live API token, or null; records when the token was last used (at most once a minute). */
export async function authenticateBearer(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  token: string,
): Promise<Account | null> {
  const found = await deps.store.tokens.findLiveWithAccount(hashApiToken(token));
  if (!found) return null;
  const now = deps.clock.now();
  if (found.token.lastUsed === null || now - found.token.lastUsed > TOUCH_EVERY_MS)
    await deps.store.tokens.touch(found.token.id, now);
  return found.account;
}
