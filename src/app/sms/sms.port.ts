/** One SMS as a provider takes it. `from` is an E.164 number or an alphanumeric sender ID. */
export interface SmsMessage {
  readonly to: string;
  readonly from: string;
  readonly body: string;
}

/** An SMS provider (Twilio's Messages API in `src/adapters/sms/`), configured by SMS_URL. */
export interface SmsProvider {
  /** The configured sender number, used where an alphanumeric sender is not allowed. */
  readonly senderNumber: string;
  /** Whether the account may send with an alphanumeric sender ID (the service name). */
  readonly alphanumericSender: boolean;
  /**
   * Hands one message to the provider.
   * @throws SmsSendError when the provider did not take it (or it cannot be known whether it did).
   */
  send(message: SmsMessage): Promise<{ providerId: string }>;
}

/**
 * Why a message was not taken. `notSent`: the provider answered and refused, or was never reached, so
 * trying again cannot send it twice. `retryable`: a later try may succeed (provider down, rate limit).
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly notSent: boolean,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}
