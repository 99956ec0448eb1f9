/**
 * Domain errors carry a stable, upper-snake-case code. Only `src/http/` maps a code to an HTTP status
 * (see `src/http/error-codes.ts`); everything below it throws `DomainError` with the code that fits.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'INVALID_JSON'
  | 'INVALID_HASH'
  | 'INVALID_SIGNATURE'
  | 'INVALID_PUBKEY'
  | 'INVALID_RECEIPT'
  | 'INVALID_URL'
  | 'INVALID_TEMPLATE'
  | 'TEMPLATE_TOO_COSTLY'
  | 'MANDATORY_EMAIL'
  | 'FORBIDDEN_URL'
  | 'IMAGE_TOO_LARGE'
  | 'FORBIDDEN_SENDER'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'TRANSITION_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'NO_LOGO'
  | 'CONFLICT'
  | 'ALREADY_EXISTS'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'NOT_READY'
  | 'STORE_UNAVAILABLE'
  | 'NOT_CONFIRMED'
  | 'ATTESTATION_PENDING'
  | 'ATTESTATION_NOT_AVAILABLE'
  | 'KEY_REVOKED'
  | 'KEY_EXPIRED'
  | 'INSUFFICIENT_FUNDS'
  | 'CHAIN_UNAVAILABLE'
  | 'DELIVERY_FAILED'
  | 'INTERNAL'
  | 'INVALID_STRING'
  | 'INVALID_PHONE'
  | 'OTP_REQUIRED'
  | 'OTP_INVALID'
  | 'OTP_EXPIRED'
  | 'OTP_TOO_MANY_TRIES'
  | 'OTP_TOO_SOON'
  | 'OTP_LIMIT_REACHED'
  | 'ALREADY_SIGNED'
  | 'ALREADY_DECLINED'
  | 'SIGNING_CLOSED'
  | 'DEADLINE_PASSED'
  | 'NOT_YOUR_TURN'
  | 'NOT_EDITABLE'
  | 'TOO_MANY_SIGNEES'
  | 'TOO_MANY_WATCHERS'
  | 'DUPLICATE_SIGNEE'
  | 'VARS_TOO_LARGE'
  | 'INVALID_DEADLINE'
  | 'HASH_MISMATCH'
  | 'EMPTY_DOCUMENT'
  | 'INVALID_DOCUMENT'
  | 'NO_DOCUMENT'
  | 'SIGNED_COPY_NOT_AVAILABLE'
  | 'NO_SIGNATURES';

export class DomainError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
  }
}

export function fail(code: ErrorCode, message: string): never {
  throw new DomainError(code, message);
}

/** A refusal that passes with time (a 429): says when to try again, sent as `Retry-After`. */
export class RetryLaterError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(code: ErrorCode, message: string, retryAfterSeconds: number) {
    super(code, message);
    this.name = 'RetryLaterError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** RATE_LIMITED with the seconds after which a retry may succeed (the edge sends them as `Retry-After`). */
export class RateLimitedError extends RetryLaterError {
  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', message, retryAfterSeconds);
    this.name = 'RateLimitedError';
  }
}
