/**
 * The mails the clock sends (docs/emails.md, "When each mail goes, exactly"): a reminder 3 days after a signer's invitation if
 * not signed, a warning to the requester 1 day before the deadline, and the signer's "proof confirmed"
 * once its receipt is CONFIRMED. Each is marked once (migration 016) in the transaction that queues it, so
 * the tick may run any number of times, on any number of workers: one mail per signer or per deadline.
 */
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { PLATFORM_ACTOR, recordEvent } from './audit.js';
import type { SigneeRef } from './request-mail.port.js';
import { queueRequestMails, type RequestMailDeps } from './request-mails.js';
import type { SignatureRequest, Signee } from './signature-request.port.js';

/** A reminder goes this long after the signer's invitation. */
export const REMINDER_AFTER_MS = 3 * 24 * 3600 * 1000;
/** The requester is warned this long before the deadline. */
export const DEADLINE_WARNING_MS = 24 * 3600 * 1000;

type Deps = Pick<AppDeps, 'store'> & RequestMailDeps;

/**
 * Reminds once every signer invited 3 days ago or more who has not signed (a REMINDED event each).
 * @returns how many were reminded
 */
export async function sendDueReminders(deps: Deps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.requestMailMarks.dueReminders(now - REMINDER_AFTER_MS, input.limit);
  return countDone(due, (ref) =>
    onceFor(deps, ref, `reminded:${ref.signeeId}`, async (tx, request, signee) => {
      if (request.state !== 'IN_PROGRESS' || signee.signedOn !== null) return false;
      await recordEvent(tx, request.id, { type: 'REMINDED', date: now, actor: PLATFORM_ACTOR, signee });
      return (await queueRequestMails(tx, deps, request, { kind: 'reminder', signees: [signee] })) > 0;
    }),
  );
}

/**
 * Tells each signer once that its proof of signature is confirmed, the proof attached.
 * @returns how many mails were queued
 */
export async function sendProofMails(deps: Deps, input: { limit: number }): Promise<number> {
  const due = await deps.store.requestMailMarks.dueProofMails(input.limit);
  return countDone(due, (ref) =>
    onceFor(deps, ref, `proof:${ref.signeeId}`, async (tx, request, signee) => {
      return (await queueRequestMails(tx, deps, request, { kind: 'proofConfirmed', signee })) > 0;
    }),
  );
}

/**
 * Warns the requester once per deadline, one day before it, while the request is IN_PROGRESS.
 * @returns how many warnings were queued
 */
export async function sendDeadlineWarnings(deps: Deps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.store.requestMailMarks.dueDeadlineWarnings(now, DEADLINE_WARNING_MS, input.limit);
  return countDone(due, ({ requestId, deadline }) =>
    deps.store.transaction(async (tx) => {
      if (!(await tx.requestMailMarks.mark(`expiring:${requestId}:${deadline}`, { requestId }, now))) return false;
      const request = await tx.signatureRequests.findById(requestId);
      if (request?.state !== 'IN_PROGRESS' || request.deadline !== deadline) return false;
      return (await queueRequestMails(tx, deps, request, { kind: 'expiring' })) > 0;
    }),
  );
}

async function countDone<T>(items: readonly T[], run: (item: T) => Promise<boolean>): Promise<number> {
  let done = 0;
  for (const item of items) if (await run(item)) done += 1;
  return done;
}

/** Runs `fn` in a transaction that first marks `key`; nothing when the mark was there already. */
function onceFor(
  deps: Deps,
  ref: SigneeRef,
  key: string,
  fn: (tx: Store, request: SignatureRequest, signee: Signee) => Promise<boolean>,
): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    if (!(await tx.requestMailMarks.mark(key, ref, deps.clock.now()))) return false;
    const request = await tx.signatureRequests.lockById(ref.requestId);
    const signee = request?.signees.find((s) => s.id === ref.signeeId);
    return request && signee ? fn(tx, request, signee) : false;
  });
}
