import { fail } from '../../core/errors.js';
import type { Account } from './account.port.js';
import type { AppDeps } from '../shared/deps.js';
import { hashPassword, verifyPassword } from '../../core/crypto/password.js';
import { limitAttempts } from './limit-attempts.js';

export interface UpdateAccountInput {
  readonly accountId: string;
  readonly firstName?: string;
  readonly lastName?: string;
  /** A new password needs the current one. */
  readonly password?: { readonly current: string; readonly next: string };
  /** Wrong current passwords allowed per account per minute before RATE_LIMITED. */
  readonly wrongPasswordsPerMinute: number;
}

/** NUL, other control characters and lone UTF-16 surrogates: PostgreSQL text cannot hold some, no name needs any. */
const UNFIT_IN_NAME = /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkName(field: string, value: string | undefined): void {
  if (value !== undefined && UNFIT_IN_NAME.test(value))
    fail('VALIDATION_FAILED', `"${field}" must not hold control characters or lone surrogates`);
}

/** Checks the current password, counting wrong ones per account in the store before the scrypt. */
async function checkCurrentPassword(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  account: Account,
  input: UpdateAccountInput,
): Promise<void> {
  const ok = await limitAttempts(deps, {
    limits: [{ key: `current-password|${account.id}`, max: input.wrongPasswordsPerMinute }],
    windowMs: 60_000,
    attempt: async () => (await verifyPassword(input.password!.current, account.passwordHash)) || null,
  });
  if (!ok) fail('FORBIDDEN', 'the current password is wrong');
}

/**
 * Changes the names and/or the password of an account, all in one transaction: every input is checked
 * (and the new password hashed) before anything is written, so a refused change leaves nothing behind.
 *
 * @throws DomainError NOT_FOUND (no such account), VALIDATION_FAILED (a bad name or short password),
 *   FORBIDDEN (wrong current password), RATE_LIMITED (too many wrong current passwords).
 */
export async function updateAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  input: UpdateAccountInput,
): Promise<Account> {
  checkName('firstName', input.firstName);
  checkName('lastName', input.lastName);
  const account = await deps.store.accounts.findById(input.accountId);
  if (!account) fail('NOT_FOUND', 'no such account');
  let newHash: string | undefined;
  if (input.password) {
    await checkCurrentPassword(deps, account, input);
    if (input.password.next.length < 10) fail('VALIDATION_FAILED', '"password.next" must be at least 10 characters');
    newHash = await hashPassword(input.password.next, deps.random.bytes(16));
  }
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    if (newHash !== undefined) await tx.accounts.setPassword(account.id, newHash, now);
    if (input.firstName !== undefined || input.lastName !== undefined)
      await tx.accounts.setNames(
        account.id,
        input.firstName ?? account.firstName,
        input.lastName ?? account.lastName,
        now,
      );
    return (await tx.accounts.findById(account.id))!;
  });
}
