import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveSecretBoxKey } from '../crypto/secret-box.js';
import { fail, RetryLaterError } from '../errors.js';

/**
 * One-time passwords sent by SMS to a signer who must prove they hold a phone (`requiresOTP`).
 * Pure rules: the use cases in `src/app/signature-requests/otp/` read and write the store around them.
 */
export const OTP_RULES = {
  /** Digits of a code: 10^6 values, drawn uniformly. */
  digits: 6,
  /** A code is valid this long after it was issued. */
  validMs: 10 * 60_000,
  /** Wrong tries a code survives; the next try needs a new code. */
  maxWrongTries: 5,
  /** A new code no sooner than this after the signer's last one. */
  resendAfterMs: 60_000,
  /** Codes one signer may be sent in any hour. */
  maxPerSignerPerHour: 5,
  /** Codes one phone number may be sent in any hour, all signers and requests together. */
  maxPerPhonePerHour: 10,
} as const;

const HOUR_MS = 3_600_000;
/** HKDF label of the code-hashing key: a hash made for it means nothing anywhere else. */
const HASH_PURPOSE = 'otp-code';

/** E.164: a plus sign, a country code that does not start with 0, at most 15 digits in all. */
export function isE164(phone: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(phone);
}

/**
 * A uniformly drawn integer in [0, max) from a source of random bytes: 32-bit draws, rejecting the
 * top values that would favour small results (modulo bias).
 * @throws DomainError VALIDATION_FAILED when `max` is not an integer from 1 to 2^32.
 */
export function uniformIntBelow(max: number, bytes: (n: number) => Buffer): number {
  if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) fail('VALIDATION_FAILED', `"max" out of range: ${max}`);
  const limit = 2 ** 32 - (2 ** 32 % max);
  for (;;) {
    const draw = bytes(4).readUInt32BE(0);
    if (draw < limit) return draw % max;
  }
}

/**
 * A new code: `OTP_RULES.digits` decimal digits, leading zeros kept, every value equally likely.
 * @throws DomainError VALIDATION_FAILED only if the byte source is broken (see {@link uniformIntBelow}).
 */
export function newOtpCode(bytes: (n: number) => Buffer): string {
  return String(uniformIntBelow(10 ** OTP_RULES.digits, bytes)).padStart(OTP_RULES.digits, '0');
}

/**
 * The stored form of a code: HMAC-SHA256 under a key derived from SECRET_KEY, bound to the signer, so a
 * leaked table gives neither the codes (10^6 guesses are cheap without the key) nor codes for others.
 * @throws DomainError VALIDATION_FAILED on an empty secret key.
 */
export function hashOtpCode(secretKey: string, signerKey: string, code: string): string {
  const key = deriveSecretBoxKey(secretKey, HASH_PURPOSE);
  return createHmac('sha256', key).update(`${signerKey}\n${code}`, 'utf8').digest('base64url');
}

/**
 * Whether `code` is the one hashed in `storedHash`, compared in constant time.
 * @throws DomainError VALIDATION_FAILED on an empty secret key.
 */
export function otpCodeMatches(secretKey: string, signerKey: string, code: string, storedHash: string): boolean {
  const given = Buffer.from(hashOtpCode(secretKey, signerKey, code), 'utf8');
  const stored = Buffer.from(storedHash, 'utf8');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** What the store knows of the codes sent lately, for the issue rules. */
export interface OtpIssueHistory {
  /** When the signer's last code was issued, if ever. */
  readonly lastIssuedToSigner: number | undefined;
  /** Codes issued to this signer since `now - 1 h`, and when the oldest of them was. */
  readonly signer: WindowCount;
  /** Codes issued to this phone number since `now - 1 h`, and when the oldest of them was. */
  readonly phone: WindowCount;
}

export interface WindowCount {
  readonly count: number;
  readonly oldest: number | undefined;
}

/** Start of the hour window the issue limits count in. */
export function otpLimitWindowStart(now: number): number {
  return now - HOUR_MS;
}

/**
 * Checks that a new code may be issued now.
 * @throws DomainError OTP_TOO_SOON within `resendAfterMs` of the signer's last code;
 *   OTP_LIMIT_REACHED when the signer's or the phone's hourly limit is used up.
 */
export function assertOtpMayBeIssued(now: number, history: OtpIssueHistory): void {
  const last = history.lastIssuedToSigner;
  if (last !== undefined && now - last < OTP_RULES.resendAfterMs) {
    const wait = secondsUntil(now, last + OTP_RULES.resendAfterMs);
    throw new RetryLaterError(
      'OTP_TOO_SOON',
      `a one-time password was sent less than a minute ago; ask again in ${wait} s`,
      wait,
    );
  }
  assertUnderLimit(now, history.signer, OTP_RULES.maxPerSignerPerHour, 'signer');
  assertUnderLimit(now, history.phone, OTP_RULES.maxPerPhonePerHour, 'phone number');
}

function assertUnderLimit(now: number, window: WindowCount, max: number, what: string): void {
  if (window.count < max) return;
  const wait = secondsUntil(now, (window.oldest ?? now) + HOUR_MS);
  throw new RetryLaterError(
    'OTP_LIMIT_REACHED',
    `at most ${max} one-time passwords per ${what} per hour; ask again in ${wait} s`,
    wait,
  );
}

function secondsUntil(now: number, then: number): number {
  return Math.max(1, Math.ceil((then - now) / 1000));
}

/** A stored code as the verify rule sees it. */
export interface OtpState {
  readonly expires: number;
  readonly wrongTries: number;
  readonly consumed: boolean;
}

/**
 * Checks that a stored code may still be tried now (before the code itself is compared).
 * @throws DomainError OTP_INVALID when it was used already; OTP_EXPIRED past its validity;
 *   OTP_TOO_MANY_TRIES after `maxWrongTries` wrong tries.
 */
export function assertOtpTryable(now: number, otp: OtpState): void {
  if (otp.consumed) fail('OTP_INVALID', 'this one-time password was used already; ask for a new one');
  if (now >= otp.expires) fail('OTP_EXPIRED', 'the one-time password expired; ask for a new one');
  if (otp.wrongTries >= OTP_RULES.maxWrongTries)
    fail('OTP_TOO_MANY_TRIES', 'too many wrong one-time passwords; ask for a new one');
}

/** The SMS text that carries a code, in English or French (any other language gets English). The code leads so that phones can offer to fill it in. */
export function otpSmsText(lang: string, code: string, serviceName: string): string {
  const minutes = OTP_RULES.validMs / 60_000;
  if (lang === 'fr')
    return `${code} est votre code de signature ${serviceName}. Valable ${minutes} minutes. Ne le communiquez à personne.`;
  return `${code} is your ${serviceName} signing code. Valid for ${minutes} minutes. Do not share it.`;
}

/**
 * The sender of an SMS: the service name where the provider allows an alphanumeric sender ID (at most
 * 11 letters, digits or spaces, with at least one letter; not towards North America, +1, whose carriers
 * refuse them), else the configured number.
 */
export function chooseSmsSender(input: {
  serviceName: string;
  number: string;
  alphanumericSender: boolean;
  to: string;
}): string {
  const name = input.serviceName.trim();
  const alphanumeric = /^[A-Za-z0-9 ]{1,11}$/.test(name) && /[A-Za-z]/.test(name);
  return input.alphanumericSender && alphanumeric && !input.to.startsWith('+1') ? name : input.number;
}
