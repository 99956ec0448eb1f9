import type { ClientAuth } from '../app/shared/service-api.port.js';
import type { ClientContext } from './client-context.js';

export const DEFAULT_API_URL = 'http://localhost:3000';
export const DEFAULT_IDENTITY_URL = 'http://localhost:3001';
export const START_HINT = 'is proofseal running? Start the default run with: npx proofseal start';

export interface ClientSettings {
  readonly apiUrl: string;
  readonly identityUrl: string;
  readonly auth: ClientAuth | undefined;
  readonly identityToken: string | undefined;
  /** Where the credentials came from, for messages. */
  readonly credentialsFrom: 'flags or environment' | 'credentials.json' | 'none';
}

export type Flags = Record<string, string | boolean | undefined>;

/** The options every client command takes. */
export const CLIENT_OPTIONS = {
  'api-url': { type: 'string' },
  'identity-url': { type: 'string' },
  token: { type: 'string' },
  login: { type: 'string' },
  password: { type: 'string' },
  'identity-token': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const str = (v: string | boolean | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
const sameUrl = (a: string | undefined, b: string) =>
  a !== undefined && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Flags, then PROOFSEAL_* environment, then `<DATA_DIR>/credentials.json` of the default run, then the
 * defaults (API on localhost:3000, identity server on localhost:3001). The local credentials are only
 * sent to the URLs they were made for, never to another service.
 */
export async function resolveClientSettings(
  flags: Flags,
  { env, dataDir, adapters }: Pick<ClientContext, 'env' | 'dataDir' | 'adapters'>,
): Promise<ClientSettings> {
  const local = (await adapters.readCredentials(dataDir)) ?? {};
  const apiUrl = (str(flags['api-url']) ?? env.apiUrl ?? local.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '');
  const identityUrl = (
    str(flags['identity-url']) ??
    env.identityUrl ??
    local.identityUrl ??
    DEFAULT_IDENTITY_URL
  ).replace(/\/+$/, '');
  const token = str(flags.token) ?? env.apiToken;
  const login = str(flags.login) ?? env.login;
  const password = str(flags.password) ?? env.password;
  let auth: ClientAuth | undefined;
  let credentialsFrom: ClientSettings['credentialsFrom'] = 'flags or environment';
  if (token) auth = { kind: 'bearer', token };
  else if (login && password) auth = { kind: 'basic', login, password };
  else if (sameUrl(local.apiUrl, apiUrl) && local.apiToken) {
    auth = { kind: 'bearer', token: local.apiToken };
    credentialsFrom = 'credentials.json';
  } else credentialsFrom = 'none';
  const identityToken =
    str(flags['identity-token']) ??
    env.identityToken ??
    (sameUrl(local.identityUrl, identityUrl) ? local.identityToken : undefined);
  return { apiUrl, identityUrl, auth, identityToken, credentialsFrom };
}
