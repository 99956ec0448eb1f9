/**
 * The keys of the moments of a request's mail flow that happen once (migration 016): a mail that must go
 * exactly once is queued in the transaction that writes its mark, so a job run twice finds the mark and sends
 * nothing more. Only mails are marked here: a signer's own status (viewed, signed, declined, reminded) is a
 * column of the signer (migration 034). The store reads the same prefixes in SQL (`PREFIX.invited || id`).
 */

/** A mail-mark key: made only by {@link mailMark}, so no other string reaches the store as one. */
export type MailMark = string & { readonly __mailMark: true };

/** The prefix of each kind of mark, the store's SQL adds the id to. */
export const MAIL_MARK_PREFIX = {
  /** The signer's invitation went (`invited:<signer id>`). */
  invited: 'invited:',
  /** The signer was told its signature's proof is confirmed (`proof:<signer id>`). */
  proofConfirmed: 'proof:',
  /** The requester was warned of this deadline (`expiring:<request id>:<deadline>`). */
  deadlineWarning: 'expiring:',
} as const;

const key = (k: string): MailMark => k as MailMark;

export const mailMark = {
  invited: (signerId: string): MailMark => key(`${MAIL_MARK_PREFIX.invited}${signerId}`),
  proofConfirmed: (signerId: string): MailMark => key(`${MAIL_MARK_PREFIX.proofConfirmed}${signerId}`),
  deadlineWarning: (requestId: string, deadline: number): MailMark =>
    key(`${MAIL_MARK_PREFIX.deadlineWarning}${requestId}:${deadline}`),
};
