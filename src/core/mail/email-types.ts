/**
 * The e-mails of the signature workflow, one entry each (docs/emails.md): who receives each and whether a
 * request may turn it off with `<identifier>Disabled`. The spec's `signatureConfirmedWatcher#Email` is
 * `signatureConfirmedWatcherEmail` (docs/emails.md, "The types").
 */
import { fail } from '../errors.js';

export type Recipient = 'signee' | 'requester' | 'watcher' | 'all';

export interface EmailType {
  readonly recipient: Recipient;
  /** Mandatory e-mails cannot be disabled. */
  readonly mandatory: boolean;
  /** When it is sent, as the spec says. */
  readonly when: string;
}

export const EMAIL_TYPES = {
  signatureRequestSigneeEmail: { recipient: 'signee', mandatory: true, when: 'the request is activated' },
  signatureReminderSigneeEmail: {
    recipient: 'signee',
    mandatory: false,
    when: '3 days after activation, if not signed',
  },
  signatureCanceledSigneeEmail: { recipient: 'signee', mandatory: false, when: 'the request becomes CANCELED' },
  signatureClosedSigneeEmail: { recipient: 'signee', mandatory: false, when: 'the request becomes CLOSED' },
  signatureConfirmedSigneeEmail: { recipient: 'signee', mandatory: false, when: 'right after the signer signs' },
  signatureDeadlineUpdatedSigneeEmail: { recipient: 'signee', mandatory: false, when: 'the deadline is postponed' },
  signatureProofConfirmedSigneeEmail: { recipient: 'signee', mandatory: false, when: "the signer's proof is ready" },
  signatureConfirmedRequesterEmail: { recipient: 'requester', mandatory: false, when: 'after each signature' },
  signatureFeedbackRequesterEmail: { recipient: 'requester', mandatory: true, when: 'a signer reports feedback' },
  signatureExpiringRequesterEmail: { recipient: 'requester', mandatory: false, when: 'one day before the deadline' },
  signatureAttestationEmail: {
    recipient: 'all',
    mandatory: false,
    when: 'the attestation of a COMPLETED or CLOSED request is ready',
  },
  signatureRequestWatcherEmail: { recipient: 'watcher', mandatory: false, when: 'the request is activated' },
  signatureCanceledWatcherEmail: { recipient: 'watcher', mandatory: false, when: 'the request becomes CANCELED' },
  signatureClosedWatcherEmail: { recipient: 'watcher', mandatory: false, when: 'the request becomes CLOSED' },
  signatureConfirmedWatcherEmail: { recipient: 'watcher', mandatory: false, when: 'right after a signer signs' },
} as const satisfies Record<string, EmailType>;

export type EmailTypeId = keyof typeof EMAIL_TYPES;
export const EMAIL_TYPE_IDS = Object.keys(EMAIL_TYPES) as EmailTypeId[];

export type Vars = Readonly<Record<string, string | boolean>>;

/** True when the request's vars turn this e-mail off (never for a mandatory one). */
export function isEmailDisabled(vars: Vars, id: EmailTypeId): boolean {
  return !EMAIL_TYPES[id].mandatory && vars[`${id}Disabled`] === true;
}

/**
 * Refuses vars that disable a mandatory e-mail.
 * @throws DomainError MANDATORY_EMAIL naming the variable
 */
export function checkEmailSwitches(vars: Vars): void {
  for (const id of EMAIL_TYPE_IDS)
    if (EMAIL_TYPES[id].mandatory && vars[`${id}Disabled`] === true)
      fail('MANDATORY_EMAIL', `"${id}Disabled": ${id} is mandatory and cannot be disabled`);
}

/** The custom templates a request's vars carry: `<identifier>SubjectTemplate` / `<identifier>ContentTemplate`. */
export function customTemplatesOf(
  vars: Vars,
): { readonly name: string; readonly source: string; readonly html: boolean }[] {
  return EMAIL_TYPE_IDS.flatMap((id) =>
    (['Subject', 'Content'] as const).flatMap((part) => {
      const source = vars[`${id}${part}Template`];
      return typeof source === 'string' ? [{ name: `${id}${part}Template`, source, html: part === 'Content' }] : [];
    }),
  );
}
