/** What every signature of a request does, delegated or with the signer's own key. */
import { fail } from '../../core/errors.js';
import type { Store } from '../shared/store.port.js';
import { auditEvent, signerActor, type Origin } from './audit.js';
import { findSigner } from './signer-secrets.js';
import { queueMoveConsequences, enqueueRequestCallback, platformMoveEvent } from './lifecycle.js';
import type { RequestAndSigner, SignatureRequest, Signer, SignMethod } from './signature-request.port.js';
import type { AppDeps } from '../shared/deps.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import { logSignature } from '../transparency/log-signing-events.js';

/**
 * The request (locked until the transaction ends) and the signer, checked to be able to sign now.
 * @throws DomainError NOT_FOUND (the one answer for a bad signer secret), ALREADY_SIGNED, ALREADY_DECLINED,
 *   SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN
 */
export async function lockForSigning(
  tx: Store,
  deps: Pick<AppDeps, 'secretKey'>,
  input: { requestId: string; signerSecret: string; now: number },
): Promise<RequestAndSigner> {
  const found = await findSigner(
    { store: tx, secretKey: deps.secretKey },
    { requestId: input.requestId, signerSecret: input.signerSecret, lock: true },
  );
  assertSignerOpen(found.signer);
  assertCanSign(found, input.now);
  return found;
}

/**
 * Checks that the signer has neither signed nor declined: before any one-time password is checked (a signer
 * who is done learns so, not that a code is needed), and again under the request's lock.
 * @throws DomainError ALREADY_SIGNED, ALREADY_DECLINED
 */
export function assertSignerOpen(signer: Signer): void {
  if (signer.signedOn !== null) fail('ALREADY_SIGNED', 'this signer has already signed this request');
  if (signer.declinedOn !== null) fail('ALREADY_DECLINED', 'this signer declined to sign this request');
}

/**
 * Checks that the signer of a request (read under its lock) can sign now.
 * @throws DomainError ALREADY_SIGNED, SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN
 */
export function assertCanSign({ request, signer }: RequestAndSigner, now: number): void {
  if (signer.signedOn !== null) fail('ALREADY_SIGNED', 'this signer has already signed this request');
  if (request.state !== 'IN_PROGRESS')
    fail('SIGNING_CLOSED', `the request is ${request.state}: it is signed only while IN_PROGRESS`);
  if (request.deadline !== null && now >= request.deadline)
    fail('DEADLINE_PASSED', `the deadline of this request passed on ${new Date(request.deadline).toISOString()}`);
  if (request.ordered && request.signers.some((s) => s.position < signer.position && s.signedOn === null))
    fail('NOT_YOUR_TURN', 'this request is signed in order, and a signer before you has not signed yet');
}

/**
 * Records a signature (its anchor made in the same transaction), its audit event, callback and mails
 * (with `deps`), and completes the request when it was the last one. The request is locked and the signer
 * was read unsigned under the lock (lockForSigning, or the same checks).
 */
export async function recordSignature(
  tx: Store,
  input: {
    request: SignatureRequest;
    signer: Signer;
    anchorId: string;
    method: SignMethod;
    now: number;
    origin?: Origin;
  },
  deps?: RequestMailDeps,
): Promise<SignatureRequest> {
  const { request, signer, anchorId, method, now } = input;
  const type = method === 'delegated' ? 'DELEGATE' : 'SIGN';
  const event = auditEvent({ type, date: now, actor: signerActor(signer), signer: signer, origin: input.origin });
  const signers = request.signers.map((s) => (s.id === signer.id ? { ...s, signedOn: now, anchorId, method } : s));
  // The last signature completes the request in the same statement (the request is locked by the caller).
  const last = signers.every((s) => s.signedOn !== null);
  const move = last
    ? { from: request.state, to: 'COMPLETED' as const, event: platformMoveEvent(request.state, 'COMPLETED', now) }
    : undefined;
  // The request is locked and the signer was read unsigned under the lock (lockForSigning).
  await tx.signatureRequests.markSigned(signer.id, request.id, { anchorId, method }, event, move);
  await logSignature(tx, { requestId: request.id, signerId: signer.id, anchorId, at: now });
  const signed: SignatureRequest = { ...request, signers: signers, lastModified: now };
  await enqueueRequestCallback(tx, signed, 'signature');
  const signedNow = signers.find((s) => s.id === signer.id)!;
  if (deps) await queueRequestMails(tx, deps, signed, { kind: 'signed', signer: signedNow });
  if (!move) return signed;
  const completed: SignatureRequest = { ...signed, state: move.to };
  await queueMoveConsequences(tx, signed, completed, deps);
  return completed;
}
