/**
 * Phone numbers that receive one-time passwords, in one canonical form. A limit counted by the text a
 * requester typed can be walked around with another spelling of the same number (`07…`, `007…`, `+44…`),
 * so every number is parsed once, with libphonenumber-js and its full ("max") metadata, into E.164; the
 * full metadata is the one that knows a mobile range from a fixed-line one. Pure: a table lookup, no I/O.
 */
import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';
import { fail } from '../errors.js';

/** A number that can receive SMS, in its canonical parts. */
export interface SmsPhone {
  /** `+` and digits, e.g. `+447400123456`: what SMS go to and what limits count on. */
  readonly e164: string;
  /** The country calling code, digits only, e.g. `44`. */
  readonly countryCallingCode: string;
  /** The national significant number (no trunk prefix), e.g. `7400123456`. */
  readonly nationalNumber: string;
}

/** Number types that receive SMS: mobile, and the ranges that cannot be told apart from mobile (US, CA…). */
const SMS_TYPES: ReadonlySet<string> = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * The canonical form of `phone` (digits, maybe with trunk prefixes such as `0` or `00`) in the country of
 * `countryCallingCode` (`44` or `+44`). Leading zeros are tried off one by one, the spelling as given
 * first (some countries, e.g. Côte d'Ivoire, keep a leading 0 in the national number).
 * @throws DomainError INVALID_PHONE when no spelling is a valid number of that country that can receive SMS
 */
export function normaliseSmsPhone(countryCallingCode: string, phone: string, label = 'phone'): SmsPhone {
  const cc = countryCallingCode.trim().replace(/^\+/, '');
  if (!/^[1-9]\d{0,3}$/.test(cc))
    fail('INVALID_PHONE', `"countryCallingCode" expected 1 to 4 digits like 33, got "${cc}"`);
  const digits = phone.replace(/[\s().-]/g, '');
  if (!/^\d{1,17}$/.test(digits)) fail('INVALID_PHONE', `"${label}" expected digits only`);
  let landline = false;
  const zeros = /^0*/.exec(digits)![0].length;
  for (let cut = 0; cut <= zeros; cut++) {
    const parsed = parsePhoneNumberFromString(`+${cc}${digits.slice(cut)}`);
    if (!parsed || parsed.countryCallingCode !== cc || !parsed.isValid()) continue;
    if (SMS_TYPES.has(parsed.getType() ?? '')) return partsOf(parsed);
    landline = true;
  }
  if (landline) fail('INVALID_PHONE', `"${label}" is a fixed-line number of +${cc}; give a mobile number for SMS`);
  fail('INVALID_PHONE', `"${label}" is not a valid mobile number of +${cc}`);
}

/**
 * The canonical form of an E.164 text (`+447400123456`; spaces allowed).
 * @throws DomainError INVALID_PHONE when it is not `+` and digits, or not a mobile-capable number
 */
export function normaliseE164(e164: string, label = 'phone'): SmsPhone {
  const text = e164.replace(/[\s().-]/g, '');
  if (!/^\+[1-9]\d{6,16}$/.test(text)) fail('INVALID_PHONE', `"${label}" expected an E.164 number like +33612345678`);
  const parsed = parsePhoneNumberFromString(text);
  if (!parsed) fail('INVALID_PHONE', `"${label}" is not a valid mobile number`);
  return normaliseSmsPhone(parsed.countryCallingCode, text.slice(1 + parsed.countryCallingCode.length), label);
}

function partsOf(parsed: PhoneNumber): SmsPhone {
  return {
    e164: parsed.number,
    countryCallingCode: parsed.countryCallingCode,
    nationalNumber: parsed.nationalNumber,
  };
}

/** The character that stands for a hidden digit. */
const HIDDEN = '•';

/**
 * Where a one-time password goes, told without giving the number away: the country code, the first digit
 * of the national number and its last two, every other digit hidden (`+33 6 •• •• •• 78`), grouped the way
 * the country writes its numbers. A signer's link may be forwarded, so the signer's view carries this and
 * never the number itself.
 */
export function maskPhone(countryCallingCode: string, phone: string): string {
  const cc = countryCallingCode.trim().replace(/^\+/, '');
  let national: string;
  try {
    const sms = normaliseSmsPhone(cc, phone);
    const parsed = parsePhoneNumberFromString(sms.e164)!;
    national = parsed.formatInternational().slice(`+${cc}`.length).trim();
  } catch {
    national = phone.replace(/\D/g, '');
  }
  const digits = national.replace(/\D/g, '').length;
  let seen = 0;
  const masked = Array.from(national, (c) => {
    if (!/\d/.test(c)) return c;
    seen += 1;
    return seen === 1 || seen > digits - 2 ? c : HIDDEN;
  }).join('');
  return `+${cc} ${masked}`;
}
