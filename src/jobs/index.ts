import type { AppDeps } from '../app/shared/deps.js';
import { deliverCallbackJob } from './callbacks/deliver-callback.job.js';
import type { JobDefinition } from './job-definition.js';
import { purgeTokensJob } from './accounts/purge-tokens.job.js';
import { sealAuditTrailJob, signatureRequestsTickJob } from './signature-requests/signature-requests.jobs.js';
import { deliverSmsJob } from './sms/deliver-sms.job.js';

/** Every job this service runs; a worker works them all, an api process only declares them to send. */
export function jobDefinitions(deps: AppDeps): JobDefinition[] {
  return [
    purgeTokensJob(deps),
    deliverCallbackJob(deps),
    deliverSmsJob(deps),
    sealAuditTrailJob(deps),
    signatureRequestsTickJob(deps),
  ];
}
