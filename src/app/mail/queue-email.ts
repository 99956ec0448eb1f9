import type { AppDeps } from '../shared/deps.js';
import type { AttachmentRef, Email } from './email.port.js';
import type { RenderedEmail } from './render-email.js';

/** The job queue of e-mail deliveries (definition in src/jobs/mail/deliver-email.job.ts). */
export const DELIVER_EMAIL = 'mail.deliver';

export interface DeliverEmailJob {
  readonly emailId: string;
}

export interface QueueEmailInput {
  readonly accountId: string | null;
  readonly requestId: string | null;
  readonly type: string;
  readonly from: Email['from'];
  readonly to: Email['to'];
  readonly rendered: RenderedEmail;
  readonly attachments?: readonly AttachmentRef[];
  /** Why the mail could not be rendered: it is written as failed, with this reason, and never delivered. */
  readonly failure?: string;
}

/**
 * Writes a mail to the outbox and queues its delivery, both through the store it is given: inside the
 * transaction of the event that causes the mail, the mail exists only if the event does.
 */
export async function queueEmail(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  input: QueueEmailInput,
): Promise<Email> {
  return (await queueEmails(deps, [input]))[0]!;
}

/** Several mails (those of one event) as {@link queueEmail}: written in one statement, their deliveries enqueued. */
export async function queueEmails(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  inputs: readonly QueueEmailInput[],
): Promise<Email[]> {
  const emails = inputs.map((input) => outboxEmail(deps, input));
  if (emails.length === 1) await deps.store.emails.insert(emails[0]!);
  else await deps.store.emails.insertMany(emails);
  for (const { id, status } of emails)
    if (status === 'queued')
      await deps.store.jobs.enqueue(DELIVER_EMAIL, { emailId: id } satisfies DeliverEmailJob, { singletonKey: id });
  return emails;
}

function outboxEmail(deps: Pick<AppDeps, 'clock' | 'random'>, input: QueueEmailInput): Email {
  const id = deps.random.uuid();
  return {
    id,
    messageId: `${id}@${input.from.address.split('@')[1] ?? 'proofseal.local'}`,
    accountId: input.accountId,
    requestId: input.requestId,
    type: input.type,
    from: input.from,
    to: input.to,
    ...input.rendered,
    attachments: input.attachments ?? [],
    status: input.failure === undefined ? 'queued' : 'failed',
    attempts: 0,
    lastError: input.failure ?? null,
    created: deps.clock.now(),
    sentAt: null,
  };
}
