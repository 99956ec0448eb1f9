import type { Logger } from 'pino';
import { bootstrapDefaultRun } from '../app/accounts/bootstrap-default-run.js';
import type { AppDeps } from '../app/shared/deps.js';
import type { IdentityDeps } from '../app/identity/identity-deps.js';
import type { LocalCredentials } from '../app/accounts/bootstrap-default-run.js';
import type { Config } from '../config.js';

/**
 * The default run's first start: when no identity key exists, creates the local credentials (see
 * `bootstrapDefaultRun`), writes them to `<DATA_DIR>/credentials.json` (mode 0600) for the command line,
 * and prints them once. When DATA_DIR cannot be written, the printed copy is the only one.
 */
export async function bootstrapLocalCredentials(
  deps: IdentityDeps &
    Pick<AppDeps, 'jobs'> & {
      /** Writes `<dataDir>/credentials.json` (mode 0600); resolves to its path. */
      saveCredentials(dataDir: string, credentials: LocalCredentials): Promise<string>;
    },
  config: Config,
  log: Logger,
  print: (text: string) => void = (t) => process.stdout.write(t),
): Promise<void> {
  const creds = await bootstrapDefaultRun(deps, { apiUrl: config.publicUrl, identityUrl: config.identityPublicUrl });
  if (!creds) return;
  let where: string;
  try {
    where = `saved to ${await deps.saveCredentials(config.dataDir, creds)} (readable by you only)`;
  } catch (err) {
    log.warn(
      { err, dataDir: config.dataDir },
      'cannot write credentials.json: the credentials below are shown only now',
    );
    where = 'NOT saved (DATA_DIR is not writable): keep them now';
  }
  print(
    [
      '',
      '  proofseal: first start: local credentials created (shown once)',
      `  API                 ${creds.apiUrl}`,
      `  identity server     ${creds.identityUrl}`,
      `  login               ${creds.login}`,
      `  password            ${creds.password}`,
      `  API token           ${creds.apiToken}`,
      `  identity API token  ${creds.identityToken}`,
      `  identity key        ${creds.identityPubKey}`,
      `  ${where}`,
      '  try: npx proofseal seal <file>',
      '  your name, as signers will read it: npx proofseal account update --first-name <F> --last-name <L>',
      '',
    ].join('\n') + '\n',
  );
}
