import type { ErrorCode } from '../core/errors.js';

/** The one catalogue of error codes and their HTTP statuses (documented in docs/errors.md). */
export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_HASH: 400,
  INVALID_SIGNATURE: 400,
  INVALID_PUBKEY: 400,
  INVALID_RECEIPT: 400,
  INVALID_URL: 400,
  INVALID_TEMPLATE: 400,
  TEMPLATE_TOO_COSTLY: 400,
  MANDATORY_EMAIL: 400,
  FORBIDDEN_URL: 400,
  IMAGE_TOO_LARGE: 400,
  FORBIDDEN_SENDER: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TRANSITION_NOT_ALLOWED: 403,
  KEY_REVOKED: 403,
  KEY_EXPIRED: 403,
  NOT_FOUND: 404,
  NO_LOGO: 404,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  NOT_READY: 503,
  STORE_UNAVAILABLE: 503,
  NOT_CONFIRMED: 202,
  ATTESTATION_PENDING: 202,
  ATTESTATION_NOT_AVAILABLE: 409,
  INSUFFICIENT_FUNDS: 503,
  CHAIN_UNAVAILABLE: 503,
  DELIVERY_FAILED: 502,
  INTERNAL: 500,
  INVALID_STRING: 400,
  INVALID_PHONE: 400,
  OTP_REQUIRED: 400,
  OTP_INVALID: 403,
  OTP_EXPIRED: 403,
  OTP_TOO_MANY_TRIES: 403,
  OTP_TOO_SOON: 429,
  OTP_LIMIT_REACHED: 429,
  ALREADY_SIGNED: 409,
  ALREADY_DECLINED: 409,
  SIGNING_CLOSED: 403,
  DEADLINE_PASSED: 403,
  NOT_YOUR_TURN: 403,
  NOT_EDITABLE: 403,
  TOO_MANY_SIGNEES: 400,
  TOO_MANY_WATCHERS: 400,
  DUPLICATE_SIGNEE: 400,
  VARS_TOO_LARGE: 400,
  INVALID_DEADLINE: 400,
  HASH_MISMATCH: 400,
  EMPTY_DOCUMENT: 400,
  INVALID_DOCUMENT: 400,
  NO_DOCUMENT: 404,
  SIGNED_COPY_NOT_AVAILABLE: 409,
  NO_SIGNATURES: 409,
};

const REASON: Record<number, string> = {
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: REASON[statusCode] ?? 'Error', message };
}
