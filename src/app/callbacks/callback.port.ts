/** One delivery attempt of a callback, kept for the account's audit (`callback_attempt`). */
export interface CallbackAttempt {
  readonly id: string;
  readonly messageId: string;
  readonly accountId: string;
  readonly anchorId: string | null;
  /** The signature request the message was about (null for an anchor's). */
  readonly signatureRequestId?: string | null;
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

/** What a callback is about: its current `callbackURL` is read from it at each attempt. */
export interface CallbackResource {
  readonly kind: 'anchor' | 'signatureRequest';
  readonly id: string;
}

/** The job queue of callback deliveries (definition in src/jobs/callbacks/deliver-callback.job.ts). */
export const DELIVER_CALLBACK = 'callback.deliver';

/** One callback message; `messageId` is its `webhook-id`, kept across retries. */
export interface CallbackJobData {
  readonly messageId: string;
  readonly accountId: string;
  /** The anchor a message is about (messages queued before `resource` existed carry only this). */
  readonly anchorId?: string;
  readonly resource?: CallbackResource;
  /** The resource's JSON at the change, the body sent on every attempt. */
  readonly payload: string;
}

/** The resource of a message, whichever form it was queued in. */
export function resourceOf(data: CallbackJobData): CallbackResource {
  return data.resource ?? { kind: 'anchor', id: data.anchorId ?? '' };
}
