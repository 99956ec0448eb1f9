import { mailMark } from '../../core/signature-requests/mail-marks.js';
import { queueRequestMails } from './request-mails.js';
import { type TimedMailDeps, countDone, markOnce, onceFor } from './timed-mails.js';

/**
 * Tells each signer once that its proof of signature is confirmed, the proof attached.
 * @returns how many mails were queued
 */
export async function sendProofMails(deps: TimedMailDeps, input: { limit: number }): Promise<number> {
  const due = await deps.store.requestMailMarks.dueProofMails(input.limit);
  return countDone(due, (ref) =>
    onceFor(deps, ref, markOnce(deps, ref, mailMark.proofConfirmed(ref.signerId)), async (tx, request, signer) => {
      return (await queueRequestMails(tx, deps, request, { kind: 'proofConfirmed', signer: signer })) > 0;
    }),
  );
}
