import type { AppDeps } from '../../app/shared/deps.js';
import { deliverCallback } from '../../app/callbacks/deliver-callback.js';
import { DELIVER_CALLBACK, type CallbackJobData } from '../../app/callbacks/callback.port.js';
import type { JobDefinition } from '../job-definition.js';

/**
 * Delivers one callback message; a failed attempt is retried with exponential backoff. pg-boss waits
 * between d·2^(k-1) and d·2^k seconds before retry k, so 11 retries from d = 60 s span at least
 * 60·(2^11 − 1) s ≈ 34 hours (≥ 24 h, as api-decisions.md asks).
 */
export function deliverCallbackJob(deps: AppDeps): JobDefinition<CallbackJobData> {
  return {
    name: DELIVER_CALLBACK,
    policy: 'standard',
    retryLimit: 11,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 120,
    handle: async (data) => {
      await deliverCallback(deps, data);
    },
  };
}
