import { deleteExpiredDocuments } from '../../app/signature-requests/document/delete-expired-documents.js';
import type { AppDeps } from '../../app/shared/deps.js';
import { NO_PAYLOAD } from '../no-payload.js';
import type { JobDefinition } from '../../app/shared/job-definition.port.js';

export const DOCUMENT_RETENTION = 'documents.retention';
/** Files deleted per statement batch; a run loops until none is due. */
const BATCH = 100;

/**
 * Hourly: deletes the files of CANCELED/EXPIRED requests and of COMPLETED/CLOSED ones past
 * DOCUMENT_RETENTION_DAYS, and drops uploads abandoned mid-way (docs/signature-requests.md "Retention").
 */
export function documentRetentionJob(deps: AppDeps, everySeconds = 3600): JobDefinition<typeof NO_PAYLOAD> {
  return {
    name: DOCUMENT_RETENTION,
    schema: NO_PAYLOAD,
    policy: 'one-queued-one-running',
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    expireInSeconds: 600,
    everySeconds,
    handle: async () => {
      while ((await deleteExpiredDocuments(deps, { limit: BATCH })) === BATCH);
    },
  };
}
