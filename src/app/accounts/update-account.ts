import { fail } from '../../core/errors.js';
import type { Account } from './account.port.js';
import type { AppDeps } from '../shared/deps.js';
import { hashPassword, verifyPassword } from '../../core/crypto/password.js';

export interface UpdateAccountInput {
  readonly accountId: string;
  readonly firstName?: string;
  readonly lastName?: string;
  /** A new password needs the current one. */
  readonly password?: { readonly current: string; readonly next: string };
}

/** Changes the names and/or the password of an account. */
export async function updateAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  input: UpdateAccountInput,
): Promise<Account> {
  const account = await deps.store.accounts.findById(input.accountId);
  if (!account) fail('NOT_FOUND', 'no such account');
  const now = deps.clock.now();
  if (input.password) {
    if (!(await verifyPassword(input.password.current, account.passwordHash)))
      fail('FORBIDDEN', 'the current password is wrong');
    if (input.password.next.length < 10) fail('VALIDATION_FAILED', '"password.next" must be at least 10 characters');
    await deps.store.accounts.setPassword(
      account.id,
      await hashPassword(input.password.next, deps.random.bytes(16)),
      now,
    );
  }
  if (input.firstName !== undefined || input.lastName !== undefined) {
    await deps.store.accounts.setNames(
      account.id,
      input.firstName ?? account.firstName,
      input.lastName ?? account.lastName,
      now,
    );
  }
  return (await deps.store.accounts.findById(account.id))!;
}
