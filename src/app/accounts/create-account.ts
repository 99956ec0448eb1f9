import { hashPassword } from '../../core/crypto/password.js';
import { fail } from '../../core/errors.js';
import type { Account } from './account.port.js';
import type { AppDeps } from '../shared/deps.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateAccountInput {
  readonly email: string;
  readonly password: string;
  readonly firstName?: string;
  readonly lastName?: string;
}

/** Creates an account whose login is its e-mail. Throws ALREADY_EXISTS if the e-mail is taken. */
export async function createAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  input: CreateAccountInput,
): Promise<Account> {
  if (!EMAIL.test(input.email) || input.email.length > 254)
    fail('VALIDATION_FAILED', `"email" is not an e-mail address: ${input.email}`);
  if (input.password.length < 10 || input.password.length > 1024)
    fail('VALIDATION_FAILED', '"password" must be 10 to 1024 characters');
  const now = deps.clock.now();
  const account: Account = {
    id: deps.random.uuid(),
    email: input.email,
    passwordHash: await hashPassword(input.password, deps.random.bytes(16)),
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    callbackSecretSealed: null,
    created: now,
    lastModified: now,
  };
  if (!(await deps.store.accounts.insert(account)))
    fail('ALREADY_EXISTS', `an account with e-mail ${input.email} exists`);
  return account;
}
