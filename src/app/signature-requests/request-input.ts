/** The owner's input of a signature request (creation and DRAFT `PUT`), checked once for both. */
import { fail } from '../../core/errors.js';
import { withoutFormatChars } from '../../core/text/format-chars.js';
import { assertHash } from '../../core/hash/hash-check.js';
import { assertPeople, assertVarsSize, type Vars } from '../../core/signature-requests/limits.js';
import { normaliseSmsPhone } from '../../core/signature-requests/phone.js';
import { BRANDING_URL_VARS, checkBrandingVars } from '../../core/mail/branding.js';
import { checkEmailSwitches } from '../../core/mail/email-types.js';
import { checkMailVars } from '../mail/render-email.js';
import { checkSenderVars } from '../mail/sender.js';
import { checkUserUrl } from '../shared/check-user-url.js';
import type { AppDeps } from '../shared/deps.js';
import type { RequestFields, SignatureRequestInput, SignerInput, Watcher } from './signature-request.port.js';
import { trialRenderMails } from './trial-render-mails.js';

export interface CheckedInput {
  readonly fields: RequestFields;
  readonly signers: readonly SignerInput[];
  readonly watchers: readonly Watcher[];
}

/**
 * Checks what the HTTP schema cannot: the hash, limits, sizes, URLs, dates, OTP contact details, and what
 * the vars say about e-mails (mandatory ones kept on, branding values, custom templates that compile and
 * render within their budget for this request's own recipients; `requesterEmail` is the owner's address).
 * Phones given with their calling code come back normalised (`normaliseSmsPhone`).
 * @throws DomainError INVALID_PHONE, INVALID_HASH, TOO_MANY_SIGNEES, TOO_MANY_WATCHERS, DUPLICATE_SIGNEE, VARS_TOO_LARGE,
 *   INVALID_URL, FORBIDDEN_URL, INVALID_DEADLINE, VALIDATION_FAILED, MANDATORY_EMAIL, INVALID_TEMPLATE,
 *   TEMPLATE_TOO_COSTLY, FORBIDDEN_SENDER, IMAGE_TOO_LARGE
 */
export async function checkRequestInput(
  deps: Pick<AppDeps, 'httpClient' | 'mail' | 'attestation'>,
  input: SignatureRequestInput,
  now: number,
  requesterEmail: string,
): Promise<CheckedInput> {
  const hashToSign = assertHash(input.hashToSign, 'hashToSign', { refuseEmpty: true });
  const signers = input.authorizedSignees ?? [];
  const watchers = input.watchers ?? [];
  assertPeople(
    signers.map((s) => s.email),
    watchers.length,
  );
  assertVarsSize(input.vars, 'vars');
  const normalised = signers.map((s, i) => checkSigner(s, i));
  watchers.forEach((w, i) => assertVarsSize(w.vars, `watchers[${i}].vars`));
  checkDates(input, now);
  checkMail(deps, [input.vars, ...signers.map((s) => s.vars), ...watchers.map((w) => w.vars)]);
  if (deps.mail) trialRenderMails(deps.mail, input, { email: requesterEmail });
  await checkUrls(deps, input);
  return { fields: fieldsOf(input, hashToSign), signers: normalised, watchers };
}

/**
 * Every URL of the input, through the one check of user URLs (the address rule too: the service fetches
 * callbacks, identity servers and branding images, and a link it sends must not point inside either); then
 * the branding images the service draws, whose header must not say a size over the bound.
 */
async function checkUrls(
  deps: Pick<AppDeps, 'httpClient' | 'attestation'>,
  input: SignatureRequestInput,
): Promise<void> {
  const urls: [string, string][] = [];
  for (const name of ['callbackURL', 'fileURL', 'identityURL'] as const) {
    const url = input[name];
    if (url !== undefined) urls.push([url, name]);
  }
  const varsOf: [Vars | undefined, string][] = [
    [input.vars, 'vars'],
    ...(input.authorizedSignees ?? []).map((s, i): [Vars | undefined, string] => [
      s.vars,
      `authorizedSignees[${i}].vars`,
    ]),
    ...(input.watchers ?? []).map((w, i): [Vars | undefined, string] => [w.vars, `watchers[${i}].vars`]),
  ];
  for (const [vars, where] of varsOf)
    for (const name of BRANDING_URL_VARS) {
      const url = vars?.[name];
      if (typeof url === 'string') urls.push([url, `${where}.${name}`]);
    }
  for (const [url, label] of urls) await checkUserUrl(deps.httpClient, url, label);
  await checkBrandImages(deps, urls);
}

/** The branding images the pages and the attestation draw. */
const DRAWN_IMAGE = /\.(?:serviceLogoURL|serviceIllustrationURL)$/;

/**
 * Each logo and illustration fetched once (the attestation and the pages then read the same cached copy):
 * one whose header says more than the bound is refused now, while its owner can change it. One that cannot be
 * fetched now is let through: the attestation and the pages then show their fallback.
 * @throws DomainError IMAGE_TOO_LARGE
 */
async function checkBrandImages(
  deps: Pick<AppDeps, 'attestation'>,
  urls: readonly (readonly [string, string])[],
): Promise<void> {
  const images = deps.attestation?.images;
  if (!images) return;
  const drawn = urls.filter(([, label]) => DRAWN_IMAGE.test(label));
  const checks = await Promise.all(drawn.map(([url]) => images.check(url)));
  checks.forEach((check, i) => {
    if (check.kind === 'too-large') fail('IMAGE_TOO_LARGE', `"${drawn[i]![1]}": ${check.refusal}`);
  });
}

/** Every vars object's mail switches, branding and templates (templates compile only where an engine is wired). */
function checkMail(deps: Pick<AppDeps, 'mail'>, varsList: readonly (Vars | undefined)[]): void {
  const given = varsList.filter((v): v is Vars => v !== undefined);
  if (deps.mail) given.forEach((v) => checkSenderVars(deps.mail!, v));
  if (deps.mail) return checkMailVars(deps.mail.engine, given);
  for (const vars of given) {
    checkEmailSwitches(vars);
    checkBrandingVars(vars);
  }
}

/**
 * The signer with its name without invisible format characters (as the request's names) and its phone
 * normalised (calling code digits, national significant number).
 */
function checkSigner(input: SignerInput, i: number): SignerInput {
  assertVarsSize(input.vars, `authorizedSignees[${i}].vars`);
  const commonName = withoutFormatChars(input.commonName);
  if (commonName === '') fail('VALIDATION_FAILED', `authorizedSignees[${i}].commonName holds no visible character`);
  const s = { ...input, commonName };
  if (s.email === undefined && s.phone === undefined)
    fail('VALIDATION_FAILED', `authorizedSignees[${i}] needs an "email" (or a "phone" for face-to-face signing)`);
  if (s.requiresOTP === true && (s.phone === undefined || s.countryCallingCode === undefined))
    fail('VALIDATION_FAILED', `authorizedSignees[${i}] requires an OTP: give "countryCallingCode" and "phone"`);
  if (s.phone === undefined || s.countryCallingCode === undefined) return s;
  const phone = normaliseSmsPhone(s.countryCallingCode, s.phone, `authorizedSignees[${i}].phone`);
  return { ...s, countryCallingCode: phone.countryCallingCode, phone: phone.nationalNumber };
}

function checkDates(input: SignatureRequestInput, now: number): void {
  if (input.deadline === undefined) return;
  if (input.deadline <= now) fail('INVALID_DEADLINE', '"deadline" must be in the future');
  if (input.activation !== undefined && input.deadline <= input.activation)
    fail('INVALID_DEADLINE', '"deadline" must be after "activation"');
}

/**
 * The request's fields as kept. Its name and file name lose their invisible format characters once, here
 * (a bidi override shows `invoice\u202Efdp.exe` as "invoiceexe.pdf" wherever it is shown).
 * @throws DomainError VALIDATION_FAILED when the name holds nothing else
 */
function fieldsOf(input: SignatureRequestInput, hashToSign: string): RequestFields {
  const name = withoutFormatChars(input.name);
  if (name === '') fail('VALIDATION_FAILED', '"name" holds no visible character');
  return {
    name,
    hashToSign,
    fileName: input.fileName === undefined ? null : withoutFormatChars(input.fileName) || null,
    fileUrl: input.fileURL ?? null,
    deadline: input.deadline ?? null,
    activation: input.activation ?? null,
    lang: input.lang ?? null,
    ordered: input.ordered ?? false,
    public: input.public ?? true,
    callbackUrl: input.callbackURL ?? null,
    identityUrl: input.identityURL ?? null,
    vars: input.vars ?? null,
  };
}
