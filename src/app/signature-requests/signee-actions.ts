/** A signer's feedback to the requester: recorded in the audit trail and mailed to the requester. */
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, signeeActor, type Origin } from './audit.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import { findSignee } from './signee-secrets.js';

/**
 * Records a signer's feedback (FEEDBACK, with subject and message) and queues the mandatory feedback mail.
 * @throws DomainError NOT_FOUND (bad signeeId)
 */
export async function giveFeedback(
  deps: Pick<AppDeps, 'store'> & RequestMailDeps,
  input: { id: string; signeeId: string; subject: string; message: string; origin?: Origin },
): Promise<void> {
  const { request, signee } = await findSignee(deps, { requestId: input.id, signeeId: input.signeeId });
  const comment = `${input.subject}\n\n${input.message}`;
  await deps.store.transaction(async (tx) => {
    await recordEvent(tx, input.id, {
      type: 'FEEDBACK',
      date: deps.clock.now(),
      actor: signeeActor(signee),
      signee,
      origin: input.origin,
      comment,
    });
    const event = { kind: 'feedback', signee, subject: input.subject, message: input.message } as const;
    await queueRequestMails(tx, deps, request, event);
  });
}
