/** A signer's own events (Woleet's `POST …/event`): recorded in the audit trail; SIGN_REFUSED is a decline. */
import { RateLimitedError, fail } from '../../core/errors.js';
import type { SignerEventType } from '../../core/signature-requests/audit-trail.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { recordEvent, signerActor, type Origin } from './audit.js';
import {
  SIGNER_EVENTS_PER_REQUEST_PER_HOUR,
  SIGNER_EVENTS_PER_SIGNER_PER_HOUR,
  retryAfterSeconds,
  signerEventWaitMs,
} from './mail-limits.js';
import { assertSignerOpen } from './record-signature.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import type { SignatureRequest, Signer } from './signature-request.port.js';
import { findSigner } from './signer-secrets.js';
import { logDecline } from '../transparency/log-signing-events.js';

/** The longest comment (a decline's reason), in UTF-16 units; the route refuses longer ones. */
export const SIGNER_EVENT_COMMENT_MAX = 2000;

/**
 * Records one signer event under the request's lock, in one transaction with what it causes. A decline
 * (SIGN_REFUSED, the comment its reason) is refused once the signer signed or declined; it marks the signer
 * declined (no signature, code or platform reminder after it) and mails the requester and the watchers.
 * The request stays IN_PROGRESS: its owner cancels or closes it (docs/signature-requests.md).
 * @throws DomainError NOT_FOUND (bad signer secret), SIGNING_CLOSED (not IN_PROGRESS), ALREADY_SIGNED /
 *   ALREADY_DECLINED (a decline); RateLimitedError (RATE_LIMITED)
 */
export async function recordSignerEvent(
  deps: Pick<AppDeps, 'store'> & RequestMailDeps,
  input: { id: string; signerSecret: string; type: SignerEventType; comment?: string; origin?: Origin },
): Promise<void> {
  const comment = input.comment === undefined || input.comment === '' ? undefined : input.comment;
  await deps.store.transaction(async (tx) => {
    const found = { requestId: input.id, signerSecret: input.signerSecret, lock: true };
    const { request, signer } = await findSigner({ ...deps, store: tx }, found);
    if (input.type === 'SIGN_REFUSED') assertSignerOpen(signer);
    if (request.state !== 'IN_PROGRESS') fail('SIGNING_CLOSED', `the request is ${request.state}, not IN_PROGRESS`);
    const now = deps.clock.now();
    await checkRate(tx, request.id, signer.id, now);
    const actor = signerActor(signer);
    await recordEvent(tx, request.id, {
      type: input.type,
      date: now,
      actor,
      signer: signer,
      origin: input.origin,
      comment,
    });
    if (input.type === 'SIGN_REFUSED')
      await decline(tx, deps, { request, signer: signer, now, reason: comment ?? null });
  });
}

async function checkRate(tx: Store, requestId: string, signerId: string, now: number): Promise<void> {
  const wait = signerEventWaitMs(await tx.signatureRequests.events(requestId), signerId, now);
  if (wait === 0) return;
  const seconds = retryAfterSeconds(wait);
  const limits = `${SIGNER_EVENTS_PER_SIGNER_PER_HOUR} per signer, ${SIGNER_EVENTS_PER_REQUEST_PER_HOUR} per request`;
  throw new RateLimitedError(`signer events are limited to ${limits} an hour; retry in ${seconds} s`, seconds);
}

/** The decline, recorded on the signer (it signs no more, and the platform's reminder skips it), and its mails. */
async function decline(
  tx: Store,
  deps: RequestMailDeps,
  input: { request: SignatureRequest; signer: Signer; now: number; reason: string | null },
): Promise<void> {
  const { request, signer: signer, now, reason } = input;
  if (!(await tx.signatureRequests.markDeclined(signer.id, { on: now, reason })))
    fail('ALREADY_DECLINED', 'this signer declined to sign this request');
  await logDecline(tx, { requestId: request.id, signerId: signer.id, at: now });
  const declined = { ...signer, declinedOn: now, declineReason: reason };
  const after = { ...request, signers: request.signers.map((s) => (s.id === signer.id ? declined : s)) };
  await queueRequestMails(tx, deps, after, { kind: 'declined', signer: declined, reason });
}
