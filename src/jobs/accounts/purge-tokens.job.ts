import type { AppDeps } from '../../app/shared/deps.js';
import { purgeExpiredAttempts } from '../../app/accounts/purge-expired-attempts.js';
import { purgeRevokedTokens } from '../../app/accounts/purge-revoked-tokens.js';
import { NO_PAYLOAD } from '../no-payload.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

export const PURGE_TOKENS = 'maintenance.purge-tokens';

/** Deletes long-revoked API tokens and expired attempt counters, once an hour across all workers. */
export function purgeTokensJob(deps: AppDeps): JobDefinition {
  return {
    name: PURGE_TOKENS,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 3,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 300,
    everySeconds: 3600,
    handle: async () => {
      await purgeRevokedTokens(deps);
      await purgeExpiredAttempts(deps);
    },
  };
}
