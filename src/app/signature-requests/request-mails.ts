/**
 * Queueing the e-mails of a signature request's event, on the store of the event's transaction: each mail
 * is rendered (signer vars > request vars > predefined), left out when its `<identifier>Disabled` says so,
 * and written to the outbox with its delivery job, so it exists only if the event does.
 */
import { BACKLOG_CAP } from '../../core/mail/backlog.js';
import { EMAIL_TYPES } from '../../core/mail/email-types.js';
import { mailContext, type MailContextInput } from '../../core/mail/mail-context.js';
import { mailMark } from '../../core/signature-requests/mail-marks.js';
import { sharingPath } from '../../core/signature-requests/sharing-token.js';
import type { Account } from '../accounts/account.port.js';
import { PLATFORM_ACTOR, recordEvent } from './audit.js';
import type { MailSettings } from '../mail/mail-settings.port.js';
import { queueEmails, type QueueEmailInput } from '../mail/queue-email.js';
import { renderEmailOrFailure } from '../mail/render-email.js';
import { replyToOf, senderOf } from '../mail/sender.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { planRequestMails, type MailTarget, type PlannedMail, type RequestMailEvent } from './request-mail-plan.js';
import { signerSecretOf } from './signer-secrets.js';
import type { SignatureRequest } from './signature-request.port.js';

/** What queueing a request's mails needs; without `mail` settings no mail is queued. */
export type RequestMailDeps = Pick<AppDeps, 'clock' | 'random' | 'secretKey' | 'mail'>;

/**
 * Queues every mail an event of the request sends (see request-mail-plan.ts), in the transaction `tx`.
 * @returns how many mails were queued
 */
export async function queueRequestMails(
  tx: Store,
  deps: RequestMailDeps,
  request: SignatureRequest,
  event: RequestMailEvent,
): Promise<number> {
  const settings = deps.mail;
  if (!settings) return 0;
  // The account's mail backlog (the deliveries' priority) is read with the account: one round trip.
  const [requester, backlog] = await Promise.all([
    tx.accounts.findById(request.accountId),
    tx.emails.countQueued(request.accountId, BACKLOG_CAP),
  ]);
  if (!requester) throw new Error(`signature request ${request.id} has no account`);
  const mails: QueueEmailInput[] = [];
  for (const planned of planRequestMails(request, event, requester.email)) {
    if (planned.invitation && planned.to.kind === 'signee') {
      const ref = { requestId: request.id, signerId: planned.to.signer.id };
      if (!(await tx.requestMailMarks.mark(mailMark.invited(planned.to.signer.id), ref, deps.clock.now()))) continue;
    }
    const mail = mailOf({ ...deps, settings }, { request, requester, planned });
    if (mail) mails.push(mail);
  }
  if (mails.length > 0) await queueEmails({ ...deps, store: tx }, mails, new Map([[request.accountId, backlog]]));
  for (const mail of mails)
    if (mail.failure !== undefined)
      await recordEvent(tx, request.id, {
        type: 'EMAIL_FAILED',
        date: deps.clock.now(),
        actor: PLATFORM_ACTOR,
        comment: `${mail.type} to ${mail.to.address}: ${mail.failure}`,
      });
  return mails.length;
}

/** The ids of the request's signers who were invited (their invitation was queued). */
export async function invitedSigners(tx: Store, request: SignatureRequest): Promise<Set<string>> {
  const invited = await Promise.all(request.signers.map((s) => tx.requestMailMarks.isMarked(mailMark.invited(s.id))));
  return new Set(request.signers.filter((_, i) => invited[i]).map((s) => s.id));
}

/** The mail to queue, rendered; null when its `<type>Disabled` leaves it out. */
function mailOf(
  deps: RequestMailDeps & { settings: MailSettings },
  input: { request: SignatureRequest; requester: Account; planned: PlannedMail },
): QueueEmailInput | null {
  const { request, planned } = input;
  const context = mailContext(contextInput(deps, input));
  if (context[`${planned.type}Disabled`] === true && !EMAIL_TYPES[planned.type].mandatory) return null;
  return {
    accountId: request.accountId,
    requestId: request.id,
    type: planned.type,
    from: senderOf(deps.settings, { name: context.serviceName, address: context.serviceEmail }),
    to: addressOf(planned.to, input.requester, context),
    replyTo: replyToAddress(planned, input.requester, context),
    ...renderEmailOrFailure(deps.settings.engine, { type: planned.type, context }),
    attachments: planned.attachments,
  };
}

function contextInput(
  deps: RequestMailDeps & { settings: MailSettings },
  input: { request: SignatureRequest; requester: Account; planned: PlannedMail },
): MailContextInput {
  const { request, requester, planned } = input;
  const baseUrl = deps.settings.publicUrl;
  return {
    baseUrl,
    platform: { serviceName: deps.settings.serviceName, serviceEmail: deps.settings.serviceEmail },
    ...(planned.event && { event: planned.event }),
    defaultSigningUrl: `${baseUrl}/sign`,
    request: {
      id: request.id,
      name: request.name,
      state: request.state,
      deadline: request.deadline,
      fileName: request.fileName,
      fileURL: request.fileUrl,
      isUploaded: request.uploaded === true,
      lang: request.lang,
      vars: request.vars ?? {},
    },
    requester: { firstName: requester.firstName, lastName: requester.lastName, email: requester.email },
    sharingUrl: baseUrl + sharingPath(deps.secretKey, request.id),
    recipient: recipientOf(deps, planned.to),
  };
}

function recipientOf(deps: RequestMailDeps, to: MailTarget): MailContextInput['recipient'] {
  if (to.kind === 'requester') return { kind: 'requester' };
  if (to.kind === 'watcher')
    return {
      kind: 'watcher',
      email: to.watcher.email,
      commonName: to.watcher.commonName ?? '',
      lang: to.watcher.lang ?? null,
    };
  const s = to.signer;
  return {
    kind: 'signee',
    email: s.email ?? '',
    commonName: s.commonName,
    signerSecret: signerSecretOf(deps, s),
    requiresOTP: s.requiresOtp,
    lang: s.lang,
    vars: s.vars ?? {},
  };
}

/**
 * Where a reply goes: a feedback mail replies to its signer, a mail to a signer or a watcher to the requester
 * (their stored addresses, never a var's); the requester's other mails have no Reply-To.
 */
function replyToAddress(
  planned: PlannedMail,
  requester: Account,
  context: Readonly<Record<string, string | boolean>>,
): QueueEmailInput['replyTo'] {
  if (planned.replyToSigner) return replyToOf(planned.replyToSigner.commonName, planned.replyToSigner.email);
  return planned.to.kind === 'requester' ? null : replyToOf(context.requesterName, requester.email);
}

/** The recipient's address: always the one stored (a var may rename a person, never redirect a mail). */
function addressOf(
  to: MailTarget,
  requester: Account,
  context: Readonly<Record<string, string | boolean>>,
): { name: string; address: string } {
  if (to.kind === 'requester') return { name: String(context.requesterName), address: requester.email };
  if (to.kind === 'watcher') return { name: to.watcher.commonName ?? '', address: to.watcher.email };
  return { name: to.signer.commonName, address: to.signer.email ?? '' };
}
