/** A signer's feedback to the requester: recorded in the audit trail and mailed to the requester. */
import { RateLimitedError, fail } from '../../core/errors.js';
import { FINAL_STATES } from '../../core/signature-requests/states.js';
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, signerActor, type Origin } from './audit.js';
import {
  FEEDBACK_PER_REQUEST_PER_HOUR,
  FEEDBACK_PER_SIGNER_PER_HOUR,
  feedbackWaitMs,
  retryAfterSeconds,
} from './mail-limits.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import { findSigner } from './signer-secrets.js';

/**
 * Records a signer's feedback (FEEDBACK, with subject and message) and queues the mandatory feedback mail.
 * Refused once the request is final (nobody acts on it any more), and limited per hour: 3 per signer and
 * 10 per request (the requester's inbox), counted on the audit events under the request's lock.
 * @throws DomainError NOT_FOUND (bad signer secret), SIGNING_CLOSED (a final request); RateLimitedError (RATE_LIMITED)
 */
export async function giveFeedback(
  deps: Pick<AppDeps, 'store'> & RequestMailDeps,
  input: { id: string; signerSecret: string; subject: string; message: string; origin?: Origin },
): Promise<void> {
  const comment = `${input.subject}\n\n${input.message}`;
  await deps.store.transaction(async (tx) => {
    const found = { requestId: input.id, signerSecret: input.signerSecret, lock: true };
    const { request, signer } = await findSigner({ ...deps, store: tx }, found);
    if (FINAL_STATES.has(request.state)) fail('SIGNING_CLOSED', `the request is ${request.state}: feedback is closed`);
    const now = deps.clock.now();
    const wait = feedbackWaitMs(await tx.signatureRequests.events(request.id), signer.id, now);
    if (wait > 0) {
      const seconds = retryAfterSeconds(wait);
      const limits = `${FEEDBACK_PER_SIGNER_PER_HOUR} per signer, ${FEEDBACK_PER_REQUEST_PER_HOUR} per request`;
      throw new RateLimitedError(`feedback is limited to ${limits} an hour; retry in ${seconds} s`, seconds);
    }
    await recordEvent(tx, input.id, {
      type: 'FEEDBACK',
      date: now,
      actor: signerActor(signer),
      signer: signer,
      origin: input.origin,
      comment,
    });
    const event = { kind: 'feedback', signer, subject: input.subject, message: input.message } as const;
    await queueRequestMails(tx, deps, request, event);
  });
}
