import { withNotes } from '../../core/documents/signed-copy-note.js';
import { DomainError } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { Attachment, AttachmentRef, Email, Mailer } from './email.port.js';

/** Produces an attachment when its mail is sent (the attestation PDF, a signer's proof). */
export type AttachmentSource = (ref: AttachmentRef) => Promise<Attachment>;

export interface DeliverEmailDeps extends Pick<AppDeps, 'store' | 'clock'> {
  readonly mailer: Mailer;
  readonly attachments?: AttachmentSource;
}

/**
 * One delivery attempt of a queued mail. A mail already delivered is left alone, so a job run twice sends
 * nothing twice; a mail of a signature request, once delivered, is an EMAIL_SENT event of its audit trail; a failure is recorded on the mail and thrown, so the job engine retries with backoff.
 * @returns the mail's status after the attempt
 * @throws DomainError DELIVERY_FAILED when the server did not take it (to be retried); NOT_FOUND for an unknown id
 */
export async function deliverEmail(deps: DeliverEmailDeps, input: { emailId: string }): Promise<Email['status']> {
  const email = await deps.store.emails.findById(input.emailId);
  if (!email) throw new DomainError('NOT_FOUND', `no e-mail ${input.emailId}`);
  if (email.status !== 'queued') return email.status;
  try {
    const attachments = await Promise.all(email.attachments.map((ref) => loadAttachment(deps, ref)));
    const notes = attachments.flatMap((a) => (a.note === undefined ? [] : [a.note]));
    const status = await deps.mailer.send(withNotes(email, notes), attachments);
    await recordDelivered(deps, email, status);
    return status;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await deps.store.emails.recordFailure(email.id, reason);
    throw new DomainError(
      'DELIVERY_FAILED',
      `e-mail ${email.id} not delivered (attempt ${email.attempts + 1}): ${reason}`,
    );
  }
}

function loadAttachment(deps: DeliverEmailDeps, ref: AttachmentRef): Promise<Attachment> {
  if (!deps.attachments) throw new Error(`no source for ${ref.kind} attachments`);
  return deps.attachments(ref);
}

/** Marks the mail delivered and, for a signature request's mail, records EMAIL_SENT in the same transaction. */
async function recordDelivered(deps: DeliverEmailDeps, email: Email, status: 'sent' | 'stored'): Promise<void> {
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    await tx.emails.markDelivered(email.id, status, now);
    if (email.requestId === null) return;
    await tx.signatureRequests.addEvent(email.requestId, {
      date: now,
      type: 'EMAIL_SENT',
      actor: 'platform',
      signerId: null,
      ip: null,
      userAgent: null,
      comment: `${email.type} to ${email.to.address}`,
    });
  });
}
