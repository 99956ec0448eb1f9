/**
 * Branding variables go into style attributes and links of the default e-mails and the attestation, so
 * they are checked when a request is created: a colour must be a CSS colour and nothing more, a URL must
 * be http(s), and an address an e-mail address.
 */
import { fail } from '../errors.js';
import type { Vars } from './email-types.js';

const COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|rgba?\(\s*[\d.]+%?\s*(,\s*[\d.]+%?\s*){2,3}\))$/;
const EMAIL = /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;]+$/;
const COLOURS = ['brandColor1', 'brandColor2', 'textColor1', 'textColor2'];
/** The branding variables that hold URLs (the logo and illustration are fetched by the service). */
export const BRANDING_URL_VARS = ['serviceURL', 'serviceLogoURL', 'serviceIllustrationURL', 'serviceDocumentationURL'];
const EMAILS = ['serviceEmail', 'serviceContactEmail'];

/**
 * @throws DomainError VALIDATION_FAILED naming the variable at fault
 */
export function checkBrandingVars(vars: Vars): void {
  for (const name of COLOURS) check(vars, name, (v) => COLOUR.test(v), 'a CSS colour (#1f4e79, rgb(…), a name)');
  for (const name of BRANDING_URL_VARS) check(vars, name, isHttpUrl, 'an http or https URL');
  for (const name of EMAILS) check(vars, name, (v) => EMAIL.test(v), 'an e-mail address');
  check(
    vars,
    'serviceName',
    (v) => !/[\r\n<>"]/.test(v) && v.length <= 100,
    'a name of at most 100 characters, without <, > or "',
  );
}

function check(vars: Vars, name: string, ok: (value: string) => boolean, expected: string): void {
  const value = vars[name];
  if (value === undefined) return;
  if (typeof value !== 'string' || !ok(value)) fail('VALIDATION_FAILED', `"vars.${name}" expected ${expected}`);
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
