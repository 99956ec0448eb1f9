import { LOCAL_LOGIN } from '../app/accounts/bootstrap-default-run.js';
import { createAccount } from '../app/accounts/create-account.js';
import { updateAccount } from '../app/accounts/update-account.js';
import { fail } from '../core/errors.js';
import type { AppDeps } from '../app/shared/deps.js';
import { createApiTokenForEmail, revokeApiToken } from '../app/accounts/manage-api-tokens.js';
import { parse, required, UsageError } from './args.js';

type Out = (line: string) => void;

const ACCOUNT_USAGE =
  'usage: proofseal account create --email <e-mail> --password <password> [--first-name F] [--last-name L]\n' +
  '       proofseal account update [--email <e-mail>] --first-name F --last-name L';

/**
 * `account create --email E --password P [--first-name] [--last-name]` (password also from PROOFSEAL_PASSWORD via
 * main); `account update [--email E] [--first-name F] [--last-name L]`.
 */
export async function accountCommand(deps: AppDeps, args: string[], out: Out, passwordFromEnv?: string): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'update') return renameAccount(deps, rest, out);
  if (sub !== 'create') throw new UsageError(ACCOUNT_USAGE);
  const { values } = parse(rest, {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    json: { type: 'boolean' },
  });
  const password = (values.password as string | undefined) ?? passwordFromEnv;
  if (!password) throw new UsageError('--password is required (or set PROOFSEAL_PASSWORD)');
  const account = await createAccount(deps, {
    email: required(values, 'email'),
    password,
    firstName: values['first-name'] as string | undefined,
    lastName: values['last-name'] as string | undefined,
  });
  out(
    values.json
      ? JSON.stringify({ id: account.id, email: account.email })
      : `account ${account.id} created for ${account.email}`,
  );
}

/**
 * `account update [--email E] --first-name F --last-name L`: the name signers, watchers and the attestation see
 * as the requester's. Without `--email`, the default run's own account (`local@proofseal.localhost`).
 */
async function renameAccount(deps: AppDeps, args: string[], out: Out): Promise<void> {
  const { values } = parse(args, {
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    json: { type: 'boolean' },
  });
  const firstName = (values['first-name'] as string | undefined)?.trim();
  const lastName = (values['last-name'] as string | undefined)?.trim();
  if (firstName === undefined && lastName === undefined)
    throw new UsageError(`--first-name or --last-name is required\n${ACCOUNT_USAGE}`);
  if (`${firstName ?? ''}${lastName ?? ''}` === '') throw new UsageError('the name must not be blank');
  const email = (values.email as string | undefined) ?? LOCAL_LOGIN;
  const found = (await deps.store.accounts.findByEmail(email)) ?? fail('NOT_FOUND', `no account ${email}`);
  const account = await updateAccount(deps, { accountId: found.id, firstName, lastName, wrongPasswordsPerMinute: 0 });
  const name = `${account.firstName} ${account.lastName}`.trim();
  out(
    values.json
      ? JSON.stringify({
          id: account.id,
          email: account.email,
          firstName: account.firstName,
          lastName: account.lastName,
        })
      : `account ${account.email} is now named "${name}"`,
  );
}

/** `token create --email E [--name N]` prints the token once; `token revoke --token T | --id ID`. */
export async function tokenCommand(deps: AppDeps, args: string[], out: Out): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parse(rest, {
    email: { type: 'string' },
    name: { type: 'string' },
    token: { type: 'string' },
    id: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (sub === 'create') {
    const { token, apiToken } = await createApiTokenForEmail(deps, {
      email: required(values, 'email'),
      name: values.name as string | undefined,
    });
    out(values.json ? JSON.stringify({ id: apiToken.id, token }) : token);
    return;
  }
  if (sub === 'revoke') {
    await revokeApiToken(deps, {
      accountId: null,
      token: values.token as string | undefined,
      id: values.id as string | undefined,
    });
    out('revoked');
    return;
  }
  throw new UsageError(
    'usage: proofseal token create --email <e-mail> [--name <name>] | token revoke --token <token> | --id <id>',
  );
}
