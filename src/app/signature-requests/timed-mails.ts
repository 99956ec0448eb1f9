/**
 * The mails the clock sends (docs/emails.md, "When each mail goes, exactly"): a reminder 3 days after a signer's invitation if
 * not signed, a warning to the requester 1 day before the deadline, and the signer's "proof confirmed"
 * once its receipt is CONFIRMED. Each is marked once (migration 016) in the transaction that queues it, so
 * the tick may run any number of times, on any number of workers: one mail per signer or per deadline.
 * The three use cases are send-due-reminders.ts, send-proof-mails.ts and send-deadline-warnings.ts; this
 * module holds their delays and the mark-once transaction.
 */
import type { MailMark } from '../../core/signature-requests/mail-marks.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import type { SignerRef } from './request-mail.port.js';
import { type RequestMailDeps } from './request-mails.js';
import type { SignatureRequest, Signer } from './signature-request.port.js';

/** A reminder goes this long after the signer's invitation. */
export const REMINDER_AFTER_MS = 3 * 24 * 3600 * 1000;

/** The requester is warned this long before the deadline. */
export const DEADLINE_WARNING_MS = 24 * 3600 * 1000;

export type TimedMailDeps = Pick<AppDeps, 'store'> & RequestMailDeps;

export async function countDone<T>(items: readonly T[], run: (item: T) => Promise<boolean>): Promise<number> {
  let done = 0;
  for (const item of items) if (await run(item)) done += 1;
  return done;
}

/** A claim that writes the mail mark `key` (false when it was there already). */
export const markOnce =
  (deps: TimedMailDeps, ref: SignerRef, key: MailMark) =>
  (tx: Store): Promise<boolean> =>
    tx.requestMailMarks.mark(key, ref, deps.clock.now());

/**
 * Runs `fn` in a transaction that first makes its claim (a mail mark written, or a signer's column set once);
 * nothing when the claim was made before.
 */
export function onceFor(
  deps: TimedMailDeps,
  ref: SignerRef,
  claim: (tx: Store) => Promise<boolean>,
  fn: (tx: Store, request: SignatureRequest, signer: Signer) => Promise<boolean>,
): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    if (!(await claim(tx))) return false;
    const request = await tx.signatureRequests.lockById(ref.requestId);
    const signer = request?.signers.find((s) => s.id === ref.signerId);
    return request && signer ? fn(tx, request, signer) : false;
  });
}
