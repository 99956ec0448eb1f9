/** What the mail flow of signature requests keeps: the moments that happen once, and finding those due. */

/** A signer of a request. */
export interface SignerRef {
  readonly requestId: string;
  readonly signeeId: string;
}

export interface RequestMailMarkRepository {
  /**
   * Records a moment of the mail flow under a deterministic key (`invited:<signee>`, `reminded:<signee>`…).
   * @returns false when it was recorded before: the mail it stands for went already
   */
  mark(key: string, ref: { readonly requestId: string; readonly signeeId?: string }, now: number): Promise<boolean>;
  /** True when this moment was recorded. */
  isMarked(key: string): Promise<boolean>;
  /** Signers of IN_PROGRESS requests invited at or before `invitedBy`, unsigned and not reminded by the platform. */
  dueReminders(invitedBy: number, limit: number): Promise<SignerRef[]>;
  /** Signers whose signature anchor is CONFIRMED and who were not told so yet. */
  dueProofMails(limit: number): Promise<SignerRef[]>;
  /** IN_PROGRESS requests whose deadline falls in (now, now + within] and whose requester was not warned of it. */
  dueDeadlineWarnings(now: number, within: number, limit: number): Promise<{ requestId: string; deadline: number }[]>;
}
