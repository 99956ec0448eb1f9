import { fail } from '../../core/errors.js';
import { FINAL_STATES } from '../../core/signature-requests/states.js';
import { recordEvent } from './audit.js';
import { invitedSigners, queueRequestMails } from './request-mails.js';
import type { SignatureRequest } from './signature-request.port.js';
import type { OwnerActionDeps, OwnerInput } from './owner-input.js';

/**
 * Sets or removes the deadline of a request that is not final; a new deadline is in the future and
 * after the activation date. Recorded as DEADLINE_UPDATED; a postponed deadline (later, or removed) of an
 * IN_PROGRESS request is mailed to the invited signers who have not signed.
 * @throws DomainError NOT_FOUND, SIGNING_CLOSED (final request), INVALID_DEADLINE
 */
export async function updateDeadline(
  deps: OwnerActionDeps,
  input: OwnerInput & { deadline: number | null },
): Promise<SignatureRequest> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const request = await tx.signatureRequests.lockById(input.id, input.accountId);
    if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
    if (FINAL_STATES.has(request.state)) fail('SIGNING_CLOSED', `the request is ${request.state}: it does not change`);
    if (input.deadline !== null && input.deadline <= now) fail('INVALID_DEADLINE', '"deadline" must be in the future');
    if (input.deadline !== null && request.activation !== null && input.deadline <= request.activation)
      fail('INVALID_DEADLINE', '"deadline" must be after "activation"');
    await tx.signatureRequests.setDeadline(request.id, input.deadline, now);
    const comment = input.deadline === null ? 'no deadline' : new Date(input.deadline).toISOString();
    await recordEvent(tx, request.id, {
      type: 'DEADLINE_UPDATED',
      date: now,
      actor: input.actor,
      origin: input.origin,
      comment,
    });
    const updated = { ...request, deadline: input.deadline, lastModified: now };
    if (isPostponed(request, input.deadline)) {
      const invited = await invitedSigners(tx, request);
      await queueRequestMails(tx, deps, updated, { kind: 'deadlinePostponed', invited });
    }
    return updated;
  });
}

/** A later deadline, or none, for a request IN_PROGRESS that had one. */
function isPostponed(request: SignatureRequest, deadline: number | null): boolean {
  if (request.state !== 'IN_PROGRESS' || request.deadline === null) return false;
  return deadline === null || deadline > request.deadline;
}
