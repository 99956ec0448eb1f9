/**
 * What follows a change of a signature request, inside the transaction that makes it: the audit event,
 * the callback, the e-mails of the move, and the sealing work.
 */
import { fail } from '../../core/errors.js';
import type { AuditEventType } from '../../core/signature-requests/audit-trail.js';
import {
  SEALING_STATES,
  assertPlatformMove,
  type SignatureRequestState,
} from '../../core/signature-requests/states.js';
import { DELIVER_CALLBACK, type CallbackJobData } from '../callbacks/callback.port.js';
import type { Store } from '../shared/store.port.js';
import { PLATFORM_ACTOR, auditEvent } from './audit.js';
import { invitedSigners, queueRequestMails, type RequestMailDeps } from './request-mails.js';
import { ownerView } from './signature-request-view.js';
import type { AuditEvent, SignatureRequest } from './signature-request.port.js';
import { logRequestMove } from '../transparency/log-signing-events.js';

/** The job that seals a COMPLETED or CLOSED request's audit trail (src/jobs/signature-requests/). */
export const SEAL_AUDIT_TRAIL = 'signature-request.seal';

/** The job that makes and keeps the attestation PDF once a request's proof bundle is complete. */
export const PRODUCE_ATTESTATION = 'signature-request.attestation';

/** What a callback message reports. */
export type CallbackReason = 'state' | 'signature' | 'proofBundle';

/**
 * Queues a callback carrying the request as it is now (owner's view), when it has a callbackURL.
 * Keyed by request, reason, state, signatures so far and lastModified, so the same change never queues two
 * messages, and two signatures in the same millisecond are still two messages (two webhook-ids).
 */
export async function enqueueRequestCallback(
  tx: Store,
  request: SignatureRequest,
  reason: CallbackReason,
): Promise<void> {
  if (request.callbackUrl === null) return;
  const signed = request.signers.filter((s) => s.signedOn !== null).length;
  const key = `${request.id}_${reason}_${request.state}_${signed}_${request.lastModified}`;
  const data: CallbackJobData = {
    messageId: `msg_sr_${key}`,
    accountId: request.accountId,
    resource: { kind: 'signatureRequest', id: request.id },
    payload: JSON.stringify(ownerView(request)),
  };
  await tx.jobs.enqueue(DELIVER_CALLBACK, data, { singletonKey: key });
}

/** The event type that records a move to `to`. */
const EVENT_OF_STATE: Record<SignatureRequestState, AuditEventType> = {
  DRAFT: 'DRAFTED',
  PENDING: 'PENDING',
  IN_PROGRESS: 'ACTIVATED',
  COMPLETED: 'COMPLETED',
  CLOSED: 'CLOSED',
  CANCELED: 'CANCELED',
  EXPIRED: 'EXPIRED',
};

/**
 * Moves a request (locked by the caller) and writes what follows: the audit event, the callback and,
 * for COMPLETED/CLOSED, the job that seals the trail; with `deps`, the mails of the move (invitations and
 * watcher mails at activation, cancel and close mails). Returns the request as it is after the move.
 * @throws DomainError CONFLICT when the request is no longer in `from` (a concurrent move won)
 */
export async function moveRequest(
  tx: Store,
  request: SignatureRequest,
  move: { to: SignatureRequestState; now: number; actor: string; comment?: string },
  deps?: RequestMailDeps,
): Promise<SignatureRequest> {
  const event = auditEvent({ type: EVENT_OF_STATE[move.to], date: move.now, actor: move.actor, comment: move.comment });
  if (!(await tx.signatureRequests.setState(request.id, request.state, move.to, event)))
    fail('CONFLICT', `signature request ${request.id} changed state meanwhile; read it again`);
  const moved: SignatureRequest = { ...request, state: move.to, lastModified: move.now };
  await queueMoveConsequences(tx, request, moved, deps);
  return moved;
}

/**
 * What follows a move once it is written (by {@link moveRequest}, or with the last signature): the
 * callback, for COMPLETED/CLOSED the job that seals the trail, and with `deps` the mails of the move.
 */
export async function queueMoveConsequences(
  tx: Store,
  before: SignatureRequest,
  moved: SignatureRequest,
  deps?: RequestMailDeps,
): Promise<void> {
  await enqueueRequestCallback(tx, moved, 'state');
  await logRequestMove(tx, moved);
  if (SEALING_STATES.has(moved.state))
    await tx.jobs.enqueue(SEAL_AUDIT_TRAIL, { requestId: moved.id }, { singletonKey: moved.id });
  if (deps) await queueMoveMails(tx, deps, before, moved);
}

/**
 * The audit event of a platform move that another statement writes (the last signature completing its
 * request), checked against the state table.
 * @throws DomainError TRANSITION_NOT_ALLOWED (a bug guard)
 */
export function platformMoveEvent(from: SignatureRequestState, to: SignatureRequestState, now: number): AuditEvent {
  assertPlatformMove(from, to);
  return auditEvent({ type: EVENT_OF_STATE[to], date: now, actor: PLATFORM_ACTOR });
}

async function queueMoveMails(
  tx: Store,
  deps: RequestMailDeps,
  before: SignatureRequest,
  moved: SignatureRequest,
): Promise<void> {
  if (moved.state === 'IN_PROGRESS') await queueRequestMails(tx, deps, moved, { kind: 'activated' });
  if (moved.state !== 'CANCELED' && moved.state !== 'CLOSED') return;
  const invited = await invitedSigners(tx, moved);
  const kind = moved.state === 'CANCELED' ? 'canceled' : 'closed';
  await queueRequestMails(tx, deps, moved, { kind, invited, wasActive: before.state === 'IN_PROGRESS' });
}

/**
 * A platform move (activation, completion, expiry), checked against the state table.
 * @throws DomainError TRANSITION_NOT_ALLOWED (a bug guard), CONFLICT
 */
export async function moveAsPlatform(
  tx: Store,
  request: SignatureRequest,
  to: SignatureRequestState,
  now: number,
  deps?: RequestMailDeps,
): Promise<SignatureRequest> {
  assertPlatformMove(request.state, to);
  return moveRequest(tx, request, { to, now, actor: PLATFORM_ACTOR }, deps);
}

/** PENDING → IN_PROGRESS at once when the activation date has come (or there is none). */
export async function activateIfDue(
  tx: Store,
  request: SignatureRequest,
  now: number,
  deps?: RequestMailDeps,
): Promise<SignatureRequest> {
  if (request.state !== 'PENDING' || (request.activation !== null && request.activation > now)) return request;
  return moveAsPlatform(tx, request, 'IN_PROGRESS', now, deps);
}
