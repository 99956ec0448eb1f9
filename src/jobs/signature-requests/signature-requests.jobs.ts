import type { AppDeps } from '../../app/shared/deps.js';
import { sealAuditTrail } from '../../app/signature-requests/audit-trail.js';
import { attestationPdf } from '../../app/signature-requests/attestation/attestation-pdf.js';
import { signedCopyOf } from '../../app/signature-requests/attestation/signed-copy.js';
import { PRODUCE_ATTESTATION, SEAL_AUDIT_TRAIL } from '../../app/signature-requests/lifecycle.js';
import { activateDueRequests } from '../../app/signature-requests/activate-due-requests.js';
import { expireDueRequests } from '../../app/signature-requests/expire-due-requests.js';
import { completeProofBundles } from '../../app/signature-requests/proof-bundle.js';
import { sealDueAuditTrails } from '../../app/signature-requests/seal-due-audit-trails.js';
import { sendDeadlineWarnings } from '../../app/signature-requests/send-deadline-warnings.js';
import { sendDueReminders } from '../../app/signature-requests/send-due-reminders.js';
import { sendProofMails } from '../../app/signature-requests/send-proof-mails.js';
import { Type } from '@sinclair/typebox';
import { NO_PAYLOAD } from '../no-payload.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

/** The periodic work of signature requests (a scheduled singleton across workers). */
export const SIGNATURE_REQUESTS_TICK = 'signature-requests.tick';
const BATCH = 200;
const SEAL_DATA = Type.Object({ requestId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** Seals the audit trail of one COMPLETED/CLOSED request (queued in the transaction of that move). */
export function sealAuditTrailJob(deps: AppDeps): JobDefinition<typeof SEAL_DATA> {
  return {
    name: SEAL_AUDIT_TRAIL,
    schema: SEAL_DATA,
    policy: 'any-number',
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
 * Makes and keeps the attestation PDF of a request whose proof bundle became complete, and the signed copy of
 * its uploaded PDF when it has one (idempotent).
 */
export function produceAttestationJob(deps: AppDeps): JobDefinition<typeof SEAL_DATA> {
  return {
    name: PRODUCE_ATTESTATION,
    schema: SEAL_DATA,
    policy: 'any-number',
    retryLimit: 10,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 300,
    handle: async (data) => {
      await attestationPdf(deps, data.requestId);
      await signedCopyOf(deps, data.requestId);
    },
  };
}

/**
 * Every few seconds: activation dates → IN_PROGRESS, deadlines → EXPIRED, any trail left unsealed
 * (a seal job that gave up) sealed, the timed mails (reminders, deadline warnings, proofs confirmed),
 * and proof bundles whose receipts are all CONFIRMED marked complete. Each step is idempotent.
 */
export function signatureRequestsTickJob(deps: AppDeps, everySeconds = 5): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: SIGNATURE_REQUESTS_TICK,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    expireInSeconds: 300,
    everySeconds,
    handle: async () => {
      await activateDueRequests(deps, { limit: BATCH });
      await expireDueRequests(deps, { limit: BATCH });
      if (deps.platformSigner) await sealDueAuditTrails(deps, { limit: BATCH });
      await sendTimedMails(deps);
      await completeProofBundles(deps, { limit: BATCH });
    },
  };
}

async function sendTimedMails(deps: AppDeps): Promise<void> {
  if (!deps.mail) return;
  await sendDueReminders(deps, { limit: BATCH });
  await sendDeadlineWarnings(deps, { limit: BATCH });
  await sendProofMails(deps, { limit: BATCH });
}
