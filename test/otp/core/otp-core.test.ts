/** The pure OTP rules: uniform codes, keyed hashes, issue limits, SMS sender and text. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { DomainError, RetryLaterError } from '../../../src/core/errors.js';
import {
  assertOtpMayBeIssued,
  assertOtpTryable,
  chooseSmsSender,
  hashOtpCode,
  isE164,
  newOtpCode,
  OTP_RULES,
  otpCodeMatches,
  otpSmsText,
  uniformIntBelow,
} from '../../../src/core/signature-requests/otp.js';

const KEY = 'test-secret-key-of-at-least-32-characters';
const none = { count: 0, oldest: undefined };

/** A byte source that hands out the given 32-bit words in turn. */
function words(...values: number[]): (n: number) => Buffer {
  return (n) => {
    assert.equal(n, 4);
    const b = Buffer.alloc(4);
    b.writeUInt32BE(values.shift()!);
    return b;
  };
}

function code(err: unknown): string {
  assert.ok(err instanceof DomainError, String(err));
  return err.code;
}

describe('OTP codes', () => {
  it('are 6 digits, leading zeros kept', () => {
    assert.equal(newOtpCode(words(7)), '000007');
    assert.equal(newOtpCode(words(999_999)), '999999');
    assert.equal(newOtpCode(words(1_000_000)), '000000');
  });

  it('reject the draws that would bias small values (2^32 is not a multiple of 10^6)', () => {
    const limit = 2 ** 32 - (2 ** 32 % 1_000_000);
    // The first draw falls in the biased tail and is thrown away; the second one is used.
    assert.equal(newOtpCode(words(limit, 123_456)), '123456');
    assert.equal(newOtpCode(words(limit - 1)), String((limit - 1) % 1_000_000).padStart(6, '0'));
  });

  it('are spread evenly over the digits (chi-square over 60,000 real codes)', () => {
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) for (const d of newOtpCode(randomBytes)) counts[Number(d)]!++;
    const expected = 6_000;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    assert.ok(chi2 < 27.88, `chi-square ${chi2.toFixed(2)} over the 9-dof 0.1% threshold: ${counts.join(',')}`);
  });

  it('uniformIntBelow refuses a bad range', () => {
    assert.throws(() => uniformIntBelow(0, randomBytes), /out of range/);
  });

  it('are stored as a keyed hash bound to the signer, compared in constant time', () => {
    const h = hashOtpCode(KEY, 'signer-1', '123456');
    assert.ok(!h.includes('123456'));
    assert.ok(otpCodeMatches(KEY, 'signer-1', '123456', h));
    assert.ok(!otpCodeMatches(KEY, 'signer-1', '123457', h));
    assert.ok(!otpCodeMatches(KEY, 'signer-2', '123456', h), 'another signer');
    assert.ok(!otpCodeMatches(`${KEY}-other`, 'signer-1', '123456', h), 'another SECRET_KEY');
    assert.ok(!otpCodeMatches(KEY, 'signer-1', '123456', h.slice(1)), 'a truncated hash');
  });
});

describe('OTP issue rules', () => {
  const now = 1_700_000_000_000;
  it('a new code no sooner than 60 s after the last one, with the wait in Retry-After', () => {
    assert.throws(
      () => assertOtpMayBeIssued(now, { lastIssuedToSigner: now - 59_000, signer: none, phone: none }),
      (e) => code(e) === 'OTP_TOO_SOON' && e instanceof RetryLaterError && e.retryAfterSeconds === 1,
    );
    assertOtpMayBeIssued(now, { lastIssuedToSigner: now - 60_000, signer: none, phone: none });
  });

  it('per-signer and per-phone hourly limits', () => {
    const full = (n: number) => ({ count: n, oldest: now - 3_000_000 });
    const signerFull = { lastIssuedToSigner: undefined, signer: full(OTP_RULES.maxPerSignerPerHour), phone: none };
    assert.throws(
      () => assertOtpMayBeIssued(now, signerFull),
      (e) => code(e) === 'OTP_LIMIT_REACHED' && (e as RetryLaterError).retryAfterSeconds === 600,
    );
    const phoneFull = { lastIssuedToSigner: undefined, signer: none, phone: full(OTP_RULES.maxPerPhonePerHour) };
    assert.throws(
      () => assertOtpMayBeIssued(now, phoneFull),
      (e) => code(e) === 'OTP_LIMIT_REACHED',
    );
    assertOtpMayBeIssued(now, { lastIssuedToSigner: undefined, signer: full(4), phone: full(9) });
  });

  it('a stored code is tryable until used, expired, or tried wrong 5 times', () => {
    const fresh = { expires: now + 1, wrongTries: 4, consumed: false };
    assertOtpTryable(now, fresh);
    assert.throws(
      () => assertOtpTryable(now, { ...fresh, consumed: true }),
      (e) => code(e) === 'OTP_INVALID',
    );
    assert.throws(
      () => assertOtpTryable(now + 1, fresh),
      (e) => code(e) === 'OTP_EXPIRED',
    );
    assert.throws(
      () => assertOtpTryable(now, { ...fresh, wrongTries: 5 }),
      (e) => code(e) === 'OTP_TOO_MANY_TRIES',
    );
  });
});

describe('SMS', () => {
  it('E.164 numbers only', () => {
    for (const ok of ['+33612345678', '+14155552671', '+4420123456']) assert.ok(isE164(ok), ok);
    for (const bad of ['0612345678', '+0612345678', '+33 6 12 34 56 78', '+1234567890123456', '+12345', ''])
      assert.ok(!isE164(bad), bad);
  });

  it('the sender is the service name where an alphanumeric sender is allowed, else the number', () => {
    const base = { serviceName: 'Acme Sign', number: '+15005550006', alphanumericSender: true, to: '+33612345678' };
    assert.equal(chooseSmsSender(base), 'Acme Sign');
    assert.equal(chooseSmsSender({ ...base, alphanumericSender: false }), '+15005550006');
    assert.equal(chooseSmsSender({ ...base, to: '+14155552671' }), '+15005550006', 'not towards +1');
    assert.equal(chooseSmsSender({ ...base, serviceName: 'Acme Signatures' }), '+15005550006', '> 11 chars');
    assert.equal(chooseSmsSender({ ...base, serviceName: 'Acmé' }), '+15005550006', 'not A-Z');
    assert.equal(chooseSmsSender({ ...base, serviceName: '12345' }), '+15005550006', 'no letter');
  });

  it('texts in English and French, the code first', () => {
    assert.match(otpSmsText('en', '012345', 'Acme'), /^012345 is your Acme signing code\. Valid for 10 minutes/);
    assert.match(otpSmsText('fr', '012345', 'Acme'), /^012345 est votre code de signature Acme\. Valable 10 minutes/);
    assert.match(otpSmsText('de', '012345', 'Acme'), /^012345 is your/);
  });
});
