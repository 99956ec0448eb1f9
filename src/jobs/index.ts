import { attestationPdf } from '../app/signature-requests/attestation/attestation-pdf.js';
import { signedCopyForMail } from '../app/signature-requests/attestation/signed-copy.js';
import type { Mailer } from '../app/mail/email.port.js';
import type { AppDeps } from '../app/shared/deps.js';
import { requestAttachments, type AttestationProducer } from '../app/signature-requests/request-attachments.js';
import { deliverCallbackJob } from './callbacks/deliver-callback.job.js';
import type { JobDefinition } from '../app/shared/job-definition.port.js';
import { purgeTokensJob } from './accounts/purge-tokens.job.js';
import { deliverEmailJob } from './mail/deliver-email.job.js';
import {
  produceAttestationJob,
  sealAuditTrailJob,
  signatureRequestsTickJob,
} from './signature-requests/signature-requests.jobs.js';
import { deliverSmsJob } from './sms/deliver-sms.job.js';
import { documentRetentionJob } from './signature-requests/document-retention.job.js';
import { staticReceiptsJob } from './anchoring/static-receipts.job.js';
import { publishLogJob } from './transparency/publish-log.job.js';
import { sequenceLogJob } from './transparency/sequence-log.job.js';

/** A signed copy larger than this is not mailed (many mail servers refuse more); the attestation goes instead. */
const MAILED_SIGNED_COPY_MAX_BYTES = 15 * 1024 * 1024;

/**
 * Every job this service runs (attestation PDFs attached to mails come from `attestationPdf` unless `io` gives
 * another producer); a worker works them all, an api process only declares them to send. */
export function jobDefinitions(
  deps: AppDeps,
  io: { readonly mailer: Mailer; readonly attestation?: AttestationProducer },
): JobDefinition[] {
  return [
    purgeTokensJob(deps),
    deliverCallbackJob(deps),
    deliverEmailJob({
      ...deps,
      mailer: io.mailer,
      attachments: requestAttachments(deps, {
        attestation: io.attestation ?? ((id) => attestationPdf(deps, id)),
        signedCopy: (id) => signedCopyForMail(deps, id, MAILED_SIGNED_COPY_MAX_BYTES),
      }),
    }),
    deliverSmsJob(deps),
    sealAuditTrailJob(deps),
    produceAttestationJob(deps),
    signatureRequestsTickJob(deps),
    documentRetentionJob(deps),
    ...(deps.staticReceipts ? [staticReceiptsJob({ ...deps, staticReceipts: deps.staticReceipts })] : []),
    ...(deps.transparency ? [sequenceLogJob({ ...deps, transparency: deps.transparency })] : []),
    ...(deps.transparency?.objects
      ? [publishLogJob({ ...deps, transparency: { ...deps.transparency, objects: deps.transparency.objects } })]
      : []),
  ];
}
