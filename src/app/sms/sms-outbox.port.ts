/**
 * Life of an outbox SMS: QUEUED (waiting for its delivery job) → SENDING (handed to the provider)
 * → SENT; or KEPT (no provider configured: kept in the store for the operator), FAILED (refused, out
 * of tries, or lost in flight: never sent twice), DROPPED (no longer useful, e.g. its code expired).
 */
export type SmsStatus = 'QUEUED' | 'SENDING' | 'SENT' | 'KEPT' | 'FAILED' | 'DROPPED';

export interface SmsRecord {
  readonly id: string;
  readonly to: string;
  /** The name the SMS would like to come from (the request's serviceName). */
  readonly senderName: string;
  /** The text, sealed under SECRET_KEY (it may carry a code); null once erased. */
  readonly bodySealed: string | null;
  /** What the SMS is for, e.g. `otp`. */
  readonly purpose: string;
  readonly status: SmsStatus;
  readonly attempts: number;
  readonly providerId: string | null;
  /** The sender actually used (name or number), once tried. */
  readonly sender: string | null;
  readonly lastError: string | null;
  readonly created: number;
  /** Not worth sending after this time (the code it carries expires); null: no limit. */
  readonly notAfter: number | null;
  readonly sent: number | null;
}

export interface SmsRepository {
  insert(sms: SmsRecord): Promise<void>;
  findById(id: string): Promise<SmsRecord | undefined>;
  /** QUEUED → SENDING with one more attempt, atomically; undefined when it was not QUEUED. */
  claim(id: string): Promise<SmsRecord | undefined>;
  /** Sets the outcome of a claim (or of a row found in another state); `eraseBody` drops the sealed text. */
  settle(
    id: string,
    outcome: {
      status: SmsStatus;
      providerId?: string;
      sender?: string;
      error?: string;
      sent?: number;
      eraseBody?: boolean;
    },
  ): Promise<void>;
  /** Most recent first. */
  list(opts: { limit: number }): Promise<SmsRecord[]>;
}
