import { mailMark } from '../../core/signature-requests/mail-marks.js';
import { queueRequestMails } from './request-mails.js';
import { DEADLINE_WARNING_MS, type TimedMailDeps, countDone } from './timed-mails.js';

/**
 * Warns the requester once per deadline, one day before it, while the request is IN_PROGRESS.
 * @returns how many warnings were queued
 */
export async function sendDeadlineWarnings(deps: TimedMailDeps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.requestMailMarks.dueDeadlineWarnings(now, DEADLINE_WARNING_MS, input.limit);
  return countDone(due, ({ requestId, deadline }) =>
    deps.store.transaction(async (tx) => {
      if (!(await tx.requestMailMarks.mark(mailMark.deadlineWarning(requestId, deadline), { requestId }, now)))
        return false;
      const request = await tx.signatureRequests.findById(requestId);
      if (request?.state !== 'IN_PROGRESS' || request.deadline !== deadline) return false;
      return (await queueRequestMails(tx, deps, request, { kind: 'expiring' })) > 0;
    }),
  );
}
