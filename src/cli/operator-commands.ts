import { createAccount } from '../app/accounts/create-account.js';
import type { AppDeps } from '../app/shared/deps.js';
import { createApiTokenForEmail, revokeApiToken } from '../app/accounts/manage-api-tokens.js';
import { parse, required, UsageError } from './args.js';

type Out = (line: string) => void;

/** `account create --email E --password P [--first-name] [--last-name]` (password also from PROOFSEAL_PASSWORD via main). */
export async function accountCommand(deps: AppDeps, args: string[], out: Out, passwordFromEnv?: string): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('usage: proofseal account create --email <e-mail> --password <password>');
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
