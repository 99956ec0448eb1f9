/** What the mail flow of signature requests keeps: the moments that happen once, and finding those due. */
import type { MailMark } from '../../core/signature-requests/mail-marks.js';

/** A signer of a request. */
export interface SignerRef {
  readonly requestId: string;
  readonly signerId: string;
}

export interface RequestMailMarkRepository {
  /**
   * Records a moment of the mail flow under its key (core/signature-requests/mail-marks.ts).
   * @returns false when it was recorded before: the mail it stands for went already
   */
  mark(key: MailMark, ref: { readonly requestId: string; readonly signerId?: string }, now: number): Promise<boolean>;
  /** True when this moment was recorded. */
  isMarked(key: MailMark): Promise<boolean>;
  /**
   * Signers of IN_PROGRESS requests invited at or before `invitedBy`, neither signed nor declined, and not
   * reminded by the platform yet.
   */
  dueReminders(invitedBy: number, limit: number): Promise<SignerRef[]>;
  /** Signers whose signature anchor is CONFIRMED and who were not told so yet. */
  dueProofMails(limit: number): Promise<SignerRef[]>;
  /** IN_PROGRESS requests whose deadline falls in (now, now + within] and whose requester was not warned of it. */
  dueDeadlineWarnings(now: number, within: number, limit: number): Promise<{ requestId: string; deadline: number }[]>;
}
