import type { Logger } from 'pino';
import { bootstrapDefaultRun } from '../app/accounts/bootstrap-default-run.js';
import type { AppDeps } from '../app/shared/deps.js';
import type { IdentityDeps } from '../app/identity/identity-deps.js';
import type { LocalCredentials } from '../app/accounts/bootstrap-default-run.js';
import type { HttpConfig, IdentityConfig, ProcessConfig } from '../config.js';

/** The credentials the first start created, and the file keeping them (null: DATA_DIR cannot be written). */
export interface FirstStart {
  readonly credentials: LocalCredentials;
  readonly savedTo: string | null;
}

/**
 * The default run's first start: when no identity key exists, creates the local credentials (see
 * `bootstrapDefaultRun`) and writes them to `<DATA_DIR>/credentials.json` (mode 0600) for the command line.
 * Resolves to them, for the start banner (./start-banner.ts) to print once, last; null on a later start. When
 * DATA_DIR cannot be written, the printed copy is the only one.
 */
export async function bootstrapLocalCredentials(
  deps: IdentityDeps &
    Pick<AppDeps, 'jobs'> & {
      /** Writes `<dataDir>/credentials.json` (mode 0600); resolves to its path. */
      saveCredentials(dataDir: string, credentials: LocalCredentials): Promise<string>;
    },
  config: Pick<HttpConfig, 'publicUrl'> & Pick<IdentityConfig, 'identityPublicUrl'> & Pick<ProcessConfig, 'dataDir'>,
  log: Logger,
): Promise<FirstStart | null> {
  const credentials = await bootstrapDefaultRun(deps, {
    apiUrl: config.publicUrl,
    identityUrl: config.identityPublicUrl,
  });
  if (!credentials) return null;
  try {
    return { credentials, savedTo: await deps.saveCredentials(config.dataDir, credentials) };
  } catch (err) {
    log.warn(
      { err, dataDir: config.dataDir },
      'cannot write credentials.json: the credentials printed at the end of the start are the only copy',
    );
    return { credentials, savedTo: null };
  }
}
