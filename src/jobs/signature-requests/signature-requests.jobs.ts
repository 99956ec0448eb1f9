import type { AppDeps } from '../../app/shared/deps.js';
import { sealAuditTrail } from '../../app/signature-requests/audit-trail.js';
import { SEAL_AUDIT_TRAIL } from '../../app/signature-requests/lifecycle.js';
import { activateDueRequests, expireDueRequests } from '../../app/signature-requests/platform-moves.js';
import { completeProofBundles } from '../../app/signature-requests/proof-bundle.js';
import type { JobDefinition } from '../job-definition.js';

/** The periodic work of signature requests (a scheduled singleton across workers). */
export const SIGNATURE_REQUESTS_TICK = 'signature-requests.tick';
const BATCH = 200;

/** Seals the audit trail of one COMPLETED/CLOSED request (queued in the transaction of that move). */
export function sealAuditTrailJob(deps: AppDeps): JobDefinition<{ requestId: string }> {
  return {
    name: SEAL_AUDIT_TRAIL,
    policy: 'standard',
    retryLimit: 20,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    handle: async (data) => {
      await sealAuditTrail(deps, data);
    },
  };
}

/**
 * Every few seconds: activation dates → IN_PROGRESS, deadlines → EXPIRED, any trail left unsealed
 * (a seal job that gave up) sealed, and proof bundles whose receipts are all CONFIRMED marked complete.
 * Each step is idempotent.
 */
export function signatureRequestsTickJob(deps: AppDeps, everySeconds = 5): JobDefinition {
  return {
    name: SIGNATURE_REQUESTS_TICK,
    policy: 'stately',
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    expireInSeconds: 300,
    everySeconds,
    handle: async () => {
      await activateDueRequests(deps, { limit: BATCH });
      await expireDueRequests(deps, { limit: BATCH });
      if (deps.platformSigner)
        for (const requestId of await deps.store.signatureRequests.awaitingSeal(BATCH))
          await sealAuditTrail(deps, { requestId });
      await completeProofBundles(deps, { limit: BATCH });
    },
  };
}
