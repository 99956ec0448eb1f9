/** The owner's other operations: reminding signers and changing the deadline, each with its mails. */
import { fail } from '../../core/errors.js';
import { FINAL_STATES } from '../../core/signature-requests/states.js';
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, type Origin } from './audit.js';
import { invitedSignees, queueRequestMails, type RequestMailDeps } from './request-mails.js';
import type { SignatureRequest } from './signature-request.port.js';

type Deps = Pick<AppDeps, 'store'> & RequestMailDeps;

interface OwnerInput {
  readonly accountId: string;
  readonly id: string;
  readonly actor: string;
  readonly origin?: Origin;
}

/**
 * Reminds the signers with these e-mails (all who have not signed when the list is empty): one
 * REMINDED event and one reminder mail each.
 * @throws DomainError NOT_FOUND, SIGNING_CLOSED (not IN_PROGRESS), VALIDATION_FAILED (an e-mail that is no
 *   unsigned signer's)
 * @returns the e-mails reminded
 */
export async function remindSignees(deps: Deps, input: OwnerInput & { emails: readonly string[] }): Promise<string[]> {
  return deps.store.transaction(async (tx) => {
    const request = await tx.signatureRequests.lockById(input.id, input.accountId);
    if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
    if (request.state !== 'IN_PROGRESS') fail('SIGNING_CLOSED', `the request is ${request.state}, not IN_PROGRESS`);
    const unsigned = request.signees.filter((s) => s.signedOn === null && s.email !== null);
    const wanted = new Set(input.emails.map((e) => e.toLowerCase()));
    const targets = wanted.size === 0 ? unsigned : unsigned.filter((s) => wanted.has(s.email!.toLowerCase()));
    if (targets.length < wanted.size)
      fail('VALIDATION_FAILED', 'every e-mail must be that of a signer who has not signed');
    const date = deps.clock.now();
    for (const signee of targets)
      await recordEvent(tx, request.id, { type: 'REMINDED', date, actor: input.actor, signee, origin: input.origin });
    await queueRequestMails(tx, deps, request, { kind: 'reminder', signees: targets });
    return targets.map((s) => s.email!);
  });
}

/**
 * Sets or removes the deadline of a request that is not final; a new deadline is in the future and
 * after the activation date. Recorded as DEADLINE_UPDATED; a postponed deadline (later, or removed) of an
 * IN_PROGRESS request is mailed to the invited signers who have not signed.
 * @throws DomainError NOT_FOUND, SIGNING_CLOSED (final request), INVALID_DEADLINE
 */
export async function updateDeadline(
  deps: Deps,
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
      const invited = await invitedSignees(tx, request);
      await queueRequestMails(tx, deps, updated, { kind: 'deadlinePostponed', invited });
    }
    return updated;
  });
}

function isPostponed(request: SignatureRequest, deadline: number | null): boolean {
  if (request.state !== 'IN_PROGRESS' || request.deadline === null) return false;
  return deadline === null || deadline > request.deadline;
}
