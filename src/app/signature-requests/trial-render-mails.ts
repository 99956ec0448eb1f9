/**
 * The trial render of a request's custom e-mail templates, when the request is created or changed: each
 * mail that has a custom subject or content is rendered for each of its recipients with the request's own
 * data (the same contexts its mails will get), so a template that fails or passes its budget is refused
 * with 400 at once, not found out when the mail is due. All the renders of one trial share one limit of
 * steps and one of characters, so a request with many signers cannot make the trial itself costly.
 */
import { EMAIL_TYPES, EMAIL_TYPE_IDS, type EmailTypeId, type Vars } from '../../core/mail/email-types.js';
import { mailContext, type MailContextInput } from '../../core/mail/mail-context.js';
import type { MailSettings } from '../mail/mail-settings.port.js';
import { renderEmail } from '../mail/render-email.js';
import type { RenderMeter } from '../mail/template.port.js';
import type { SignatureRequestInput } from './signature-request.port.js';

/** The steps all the trial renders of one request may take together (three renders at their own limit). */
export const TRIAL_MAX_STEPS = 300_000;
/**
 * The characters all the trial renders of one request may build, read or compare together (eight renders at
 * their own limit): with many recipients, the work of the renders is in their characters, not their steps.
 */
export const TRIAL_MAX_CHARS = 8 * 1_048_576;
/** Stand-ins of the values a request gets only when it is stored, as long as the real ones. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const PLACEHOLDER_SECRET = 'x'.repeat(43);

type Recipient = MailContextInput['recipient'];

/**
 * Renders every custom-templated mail of the request for every recipient it would go to.
 * @throws DomainError TEMPLATE_TOO_COSTLY (naming the template, the line and the budget passed)
 */
export function trialRenderMails(
  settings: MailSettings,
  input: SignatureRequestInput,
  requester: { readonly email: string },
): void {
  const meter: RenderMeter = { steps: 0, maxSteps: TRIAL_MAX_STEPS, chars: 0, maxChars: TRIAL_MAX_CHARS };
  const signers = (input.authorizedSignees ?? []).map(signerRecipient);
  const watchers = (input.watchers ?? []).map(watcherRecipient);
  const requesterEvent = largestSigner(input);
  for (const type of EMAIL_TYPE_IDS) {
    const kind = EMAIL_TYPES[type].recipient;
    const targets: { recipient: Recipient; event?: Record<string, string> }[] = [
      ...(kind === 'signee' || kind === 'all' ? signers.map((recipient) => ({ recipient })) : []),
      ...(kind === 'watcher' || kind === 'all'
        ? watchers.map((recipient) => ({ recipient, event: requesterEvent }))
        : []),
      ...(kind === 'requester' || kind === 'all'
        ? [{ recipient: { kind: 'requester' } as const, event: eventOf(type, requesterEvent) }]
        : []),
    ];
    for (const target of targets) trialOne(settings, { input, requester, type, ...target }, meter);
  }
}

function trialOne(
  settings: MailSettings,
  t: {
    input: SignatureRequestInput;
    requester: { readonly email: string };
    type: EmailTypeId;
    recipient: Recipient;
    event?: Record<string, string> | undefined;
  },
  meter: RenderMeter,
): void {
  const context = mailContext({
    baseUrl: settings.publicUrl,
    platform: { serviceName: settings.serviceName, serviceEmail: settings.serviceEmail },
    ...(t.event && { event: t.event }),
    defaultSigningUrl: `${settings.publicUrl}/sign`,
    request: {
      id: PLACEHOLDER_ID,
      name: t.input.name,
      state: 'IN_PROGRESS',
      deadline: t.input.deadline ?? null,
      fileName: t.input.fileName ?? null,
      fileURL: t.input.fileURL ?? null,
      lang: t.input.lang ?? null,
      vars: t.input.vars ?? {},
    },
    requester: { firstName: '', lastName: '', email: t.requester.email },
    sharingUrl: `${settings.publicUrl}/share/${PLACEHOLDER_ID}/${PLACEHOLDER_SECRET}`,
    recipient: t.recipient,
  });
  const custom = [`${t.type}SubjectTemplate`, `${t.type}ContentTemplate`].some((k) => typeof context[k] === 'string');
  const disabled = context[`${t.type}Disabled`] === true && !EMAIL_TYPES[t.type].mandatory;
  if (custom && !disabled) renderEmail(settings.engine, { type: t.type, context }, meter);
}

function signerRecipient(s: NonNullable<SignatureRequestInput['authorizedSignees']>[number]): Recipient {
  return {
    kind: 'signee',
    email: s.email ?? '',
    commonName: s.commonName,
    signerSecret: PLACEHOLDER_SECRET,
    requiresOTP: s.requiresOTP ?? false,
    lang: s.lang ?? null,
    vars: s.vars ?? ({} as Vars),
  };
}

function watcherRecipient(w: NonNullable<SignatureRequestInput['watchers']>[number]): Recipient {
  return { kind: 'watcher', email: w.email, commonName: w.commonName ?? '', lang: w.lang ?? null };
}

/**
 * The signer whose name and address are longest: the one a mail about "the signer who signed" is largest for;
 * and the attestation mail's `signatureCount` as it is at most (everyone signed).
 */
function largestSigner(input: SignatureRequestInput): Record<string, string> {
  const size = (s: { commonName: string; email?: string }) => s.commonName.length + (s.email ?? '').length;
  const largest = [...(input.authorizedSignees ?? [])].sort((a, b) => size(b) - size(a))[0];
  const signatureCount = String(input.authorizedSignees?.length ?? 0);
  return { signeeName: largest?.commonName ?? '', signeeEmail: largest?.email ?? '', signatureCount };
}

function eventOf(type: EmailTypeId, signer: Record<string, string>): Record<string, string> {
  return type === 'signatureFeedbackRequesterEmail'
    ? { ...signer, feedbackKind: 'feedback', feedbackSubject: '', feedbackMessage: '' }
    : signer;
}
