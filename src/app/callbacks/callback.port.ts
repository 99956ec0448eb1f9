/** One delivery attempt of a callback, kept for the account's audit (`callback_attempt`). */
export interface CallbackAttempt {
  readonly id: string;
  readonly messageId: string;
  readonly accountId: string;
  readonly anchorId: string | null;
  readonly url: string;
  readonly attempt: number;
  /** HTTP status answered, or null when no response came. */
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly created: number;
}

export interface CallbackRepository {
  recordAttempt(attempt: CallbackAttempt): Promise<void>;
  /** Attempts of one message, oldest first. */
  attemptsOf(messageId: string): Promise<CallbackAttempt[]>;
}
