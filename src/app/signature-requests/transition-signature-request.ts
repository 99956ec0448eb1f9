import { fail } from '../../core/errors.js';
import { assertOwnerMove } from '../../core/signature-requests/states.js';
import type { AppDeps } from '../shared/deps.js';
import type { Origin } from './audit.js';
import { activateIfDue, moveRequest } from './lifecycle.js';
import type { SignatureRequest } from './signature-request.port.js';

export interface TransitionInput {
  readonly accountId: string;
  readonly id: string;
  /** The target state as the owner sent it. */
  readonly to: string;
  readonly actor: string;
  readonly origin?: Origin;
}

/**
 * The owner's move of a request (the table of docs/signature-requests.md, "States"). Moving to PENDING activates the request at
 * once (IN_PROGRESS) unless its activation date is still to come; that needs at least one signer.
 * @throws DomainError NOT_FOUND, VALIDATION_FAILED (unknown state, no signer), TRANSITION_NOT_ALLOWED
 */
export async function transitionSignatureRequest(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail'>,
  input: TransitionInput,
): Promise<SignatureRequest> {
  return deps.store.transaction(async (tx) => {
    const request = await tx.signatureRequests.lockById(input.id, input.accountId);
    if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
    const to = assertOwnerMove(request.state, input.to);
    if (to === 'PENDING' && request.signers.length === 0)
      fail('VALIDATION_FAILED', 'a request needs at least one signer in "authorizedSignees" to be activated');
    const now = deps.clock.now();
    const moved = await moveRequest(tx, request, { to, now, actor: input.actor }, deps);
    return activateIfDue(tx, moved, now, deps);
  });
}
