/**
 * Which of the workflow's e-mails (EMAIL_TYPES, docs/emails.md) an event of a signature request sends, and to whom.
 * Pure: the caller renders and queues them in the transaction of the event.
 */
import type { EmailTypeId } from '../../core/mail/email-types.js';
import type { AttachmentRef } from '../mail/email.port.js';
import type { SignatureRequest, Signer, Watcher } from './signature-request.port.js';

/** What happened to a request, as far as its mails are concerned. */
export type RequestMailEvent =
  | { readonly kind: 'activated' }
  | { readonly kind: 'signed'; readonly signer: Signer }
  | { readonly kind: 'canceled' | 'closed'; readonly invited: ReadonlySet<string>; readonly wasActive: boolean }
  | { readonly kind: 'deadlinePostponed'; readonly invited: ReadonlySet<string> }
  | { readonly kind: 'feedback'; readonly signer: Signer; readonly subject: string; readonly message: string }
  | { readonly kind: 'declined'; readonly signer: Signer; readonly reason: string | null }
  | { readonly kind: 'reminder'; readonly signers: readonly Signer[] }
  | { readonly kind: 'proofConfirmed'; readonly signer: Signer }
  | { readonly kind: 'expiring' }
  | { readonly kind: 'attestation' };

export type MailTarget =
  | { readonly kind: 'signee'; readonly signer: Signer }
  | { readonly kind: 'requester' }
  | { readonly kind: 'watcher'; readonly watcher: Watcher };

export interface PlannedMail {
  readonly type: EmailTypeId;
  readonly to: MailTarget;
  /** Variables of the event (the signer who signed, a feedback's subject and message). */
  readonly event?: Readonly<Record<string, string>>;
  readonly attachments?: readonly AttachmentRef[];
  /** The signer a reply goes to (a feedback mail); otherwise a mail to a signer or watcher replies to the requester. */
  readonly replyToSigner?: Signer;
  /** An invitation: sent once per signer (the caller marks it). */
  readonly invitation?: boolean;
}

/** The signers a request waits for now: every unsigned one, or with ordered signing the first unsigned one. */
export function currentSigners(request: SignatureRequest): Signer[] {
  const unsigned = request.signers.filter((s) => s.signedOn === null);
  return request.ordered ? unsigned.slice(0, 1) : unsigned;
}

const hasEmail = (s: Signer): boolean => s.email !== null;
const toSigners = (type: EmailTypeId, signers: readonly Signer[], extra: Partial<PlannedMail> = {}): PlannedMail[] =>
  signers.filter(hasEmail).map((signer) => ({ type, to: { kind: 'signee', signer }, ...extra }));
const toWatchers = (type: EmailTypeId, request: SignatureRequest, event?: PlannedMail['event']): PlannedMail[] =>
  request.watchers.map((watcher) => ({ type, to: { kind: 'watcher', watcher }, ...(event && { event }) }));

/**
 * The mails of one event. `requesterEmail` leaves out the requester's copy of a signature when the
 * requester is that signer (same e-mail), and a second attestation to one address.
 */
export function planRequestMails(
  request: SignatureRequest,
  event: RequestMailEvent,
  requesterEmail: string,
): PlannedMail[] {
  switch (event.kind) {
    case 'activated':
      return [...invitations(request), ...toWatchers('signatureRequestWatcherEmail', request)];
    case 'signed':
      return signedMails(request, event.signer, requesterEmail);
    case 'canceled':
    case 'closed':
      return endMails(request, event);
    case 'deadlinePostponed': {
      const waiting = request.signers.filter((s) => s.signedOn === null && event.invited.has(s.id));
      return toSigners('signatureDeadlineUpdatedSigneeEmail', waiting);
    }
    case 'feedback':
      return [feedbackMail(event)];
    case 'declined':
      return declineMails(request, event);
    case 'reminder':
      return toSigners('signatureReminderSigneeEmail', event.signers);
    case 'proofConfirmed':
      return toSigners('signatureProofConfirmedSigneeEmail', [event.signer], {
        attachments: [{ kind: 'signer-proof', requestId: request.id, signerId: event.signer.id }],
      });
    case 'expiring':
      return [{ type: 'signatureExpiringRequesterEmail', to: { kind: 'requester' } }];
    case 'attestation':
      return attestationMails(request, requesterEmail);
  }
}

function invitations(request: SignatureRequest): PlannedMail[] {
  if (request.state !== 'IN_PROGRESS') return [];
  return toSigners('signatureRequestSigneeEmail', currentSigners(request), { invitation: true });
}

function signerVars(signer: Signer): Record<string, string> {
  return { signeeName: signer.commonName, signeeEmail: signer.email ?? '' };
}

function signedMails(request: SignatureRequest, signer: Signer, requesterEmail: string): PlannedMail[] {
  const event = signerVars(signer);
  const requesterSigned = signer.email !== null && signer.email.toLowerCase() === requesterEmail.toLowerCase();
  return [
    ...toSigners('signatureConfirmedSigneeEmail', [signer]),
    ...(requesterSigned
      ? []
      : [{ type: 'signatureConfirmedRequesterEmail', to: { kind: 'requester' }, event } as const]),
    ...toWatchers('signatureConfirmedWatcherEmail', request, event),
    ...invitations(request),
  ];
}

function endMails(
  request: SignatureRequest,
  event: { kind: 'canceled' | 'closed'; invited: ReadonlySet<string>; wasActive: boolean },
): PlannedMail[] {
  const [signerType, watcherType] =
    event.kind === 'canceled'
      ? (['signatureCanceledSigneeEmail', 'signatureCanceledWatcherEmail'] as const)
      : (['signatureClosedSigneeEmail', 'signatureClosedWatcherEmail'] as const);
  const invited = request.signers.filter((s) => event.invited.has(s.id));
  return [...toSigners(signerType, invited), ...(event.wasActive ? toWatchers(watcherType, request) : [])];
}

function feedbackMail(event: { signer: Signer; subject: string; message: string }): PlannedMail {
  return {
    type: 'signatureFeedbackRequesterEmail',
    to: { kind: 'requester' },
    replyToSigner: event.signer,
    event: {
      ...signerVars(event.signer),
      feedbackKind: 'feedback',
      feedbackSubject: event.subject,
      feedbackMessage: event.message,
    },
  };
}

/**
 * A decline goes to the requester and the watchers as the (mandatory) feedback mail with `feedbackKind`
 * "decline": the default template's subject then says the signer declined, its lines give the reason and what
 * the requester may do next (close, cancel, send a new request); `feedbackSubject` and `feedbackMessage` keep
 * their meaning for a custom template written for plain feedback. No new mail type: the
 * spec's types stay the contract, and an owner's feedback template already shows a signer's words.
 */
function declineMails(request: SignatureRequest, event: { signer: Signer; reason: string | null }): PlannedMail[] {
  const vars = (lang: string | null | undefined): Record<string, string> => {
    const fr = (lang ?? request.lang ?? '').toLowerCase().startsWith('fr');
    return {
      ...signerVars(event.signer),
      feedbackKind: 'decline',
      feedbackSubject: fr ? 'Refus de signer' : 'Declined to sign',
      feedbackMessage: event.reason ?? (fr ? '(aucun motif donné)' : '(no reason given)'),
    };
  };
  const type: EmailTypeId = 'signatureFeedbackRequesterEmail';
  return [
    { type, to: { kind: 'requester' }, event: vars(request.lang) },
    ...request.watchers.map((watcher) => ({
      type,
      to: { kind: 'watcher', watcher } as const,
      event: vars(watcher.lang),
    })),
  ];
}

/** The requester, the watchers and the signers, each address once. */
function attestationMails(request: SignatureRequest, requesterEmail: string): PlannedMail[] {
  const seen = new Set([requesterEmail.toLowerCase()]);
  const once = (email: string | null): boolean => {
    if (email === null || seen.has(email.toLowerCase())) return false;
    seen.add(email.toLowerCase());
    return true;
  };
  const attachments: AttachmentRef[] = [{ kind: 'attestation', requestId: request.id }];
  const type: EmailTypeId = 'signatureAttestationEmail';
  // How many signed: a request that ended with none is mailed as such (no "proof of every signature").
  const event = { signatureCount: String(request.signers.filter((s) => s.signedOn !== null).length) };
  return [
    { type, to: { kind: 'requester' }, attachments, event },
    ...request.watchers
      .filter((w) => once(w.email))
      .map((watcher) => ({
        type,
        to: { kind: 'watcher', watcher } as const,
        attachments,
        event,
      })),
    ...request.signers
      .filter((s) => once(s.email))
      .map((signer) => ({
        type,
        to: { kind: 'signee', signer } as const,
        attachments,
        event,
      })),
  ];
}
