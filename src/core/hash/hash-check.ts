/** Checks for the API's hash format: SHA-256 as 64 lowercase hex characters. */
import { DomainError } from '../errors.js';

/** SHA-256 of empty data; refused where a caller asks (`hashToSign`, `hash`). */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const HASH_RE = /^[0-9a-f]{64}$/;

/** Options of {@link isHash} and {@link assertHash}. */
export interface HashCheckOptions {
  /** Refuse the SHA-256 of empty data. Default false. */
  refuseEmpty?: boolean;
}

/** True when `value` is 64 lowercase hex chars (and not the empty-data hash when `refuseEmpty`). */
export function isHash(value: unknown, options: HashCheckOptions = {}): value is string {
  if (typeof value !== 'string' || !HASH_RE.test(value)) return false;
  return !(options.refuseEmpty === true && value === EMPTY_SHA256);
}

/**
 * Assert that `value` is a SHA-256 hash in the API's format.
 * @param value - the candidate
 * @param label - field name used in the message, e.g. `hash`
 * @param options - `refuseEmpty` to refuse the hash of empty data
 * @returns the value, typed as string
 * @throws DomainError INVALID_HASH with a labelled message
 */
export function assertHash(value: unknown, label = 'hash', options: HashCheckOptions = {}): string {
  if (isHash(value, options)) return value;
  throw new DomainError('INVALID_HASH', describeBadHash(value, label));
}

function describeBadHash(value: unknown, label: string): string {
  if (typeof value !== 'string')
    return `"${label}" expected 64 lowercase hex chars, got ${value === null ? 'null' : typeof value}`;
  if (value === EMPTY_SHA256) return `"${label}" is the SHA-256 of empty data, which is refused`;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return `"${label}" expected lowercase hex, got upper-case characters`;
  if (value.length !== 64) return `"${label}" expected 64 lowercase hex chars, got ${value.length}`;
  return `"${label}" expected 64 lowercase hex chars, got a non-hex character`;
}
