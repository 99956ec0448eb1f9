import { PLATFORM_ACTOR, recordEvent } from './audit.js';
import { queueRequestMails } from './request-mails.js';
import { REMINDER_AFTER_MS, type TimedMailDeps, countDone, onceFor } from './timed-mails.js';

/**
 * Reminds once every signer invited 3 days ago or more who has not signed (a REMINDED event each).
 * @returns how many were reminded
 */
export async function sendDueReminders(deps: TimedMailDeps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.requestMailMarks.dueReminders(now - REMINDER_AFTER_MS, input.limit);
  return countDone(due, (ref) =>
    onceFor(
      deps,
      ref,
      (tx) => tx.signatureRequests.markReminded(ref.signerId, now),
      async (tx, request, signer) => {
        if (request.state !== 'IN_PROGRESS' || signer.signedOn !== null || signer.declinedOn !== null) return false;
        await recordEvent(tx, request.id, { type: 'REMINDED', date: now, actor: PLATFORM_ACTOR, signer: signer });
        return (await queueRequestMails(tx, deps, request, { kind: 'reminder', signers: [signer] })) > 0;
      },
    ),
  );
}
