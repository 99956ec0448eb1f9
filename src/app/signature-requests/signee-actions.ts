/** A signer's feedback to the requester (recorded; the e-mail issue sends it on). */
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, signeeActor, type Origin } from './audit.js';
import { findSignee } from './signee-secrets.js';

/**
 * Records a signer's feedback (FEEDBACK, with subject and message) in the audit trail.
 * @throws DomainError NOT_FOUND (bad signeeId)
 */
export async function giveFeedback(
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  input: { id: string; signeeId: string; subject: string; message: string; origin?: Origin },
): Promise<void> {
  const { signee } = await findSignee(deps, { requestId: input.id, signeeId: input.signeeId });
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
  });
}
