import type { AppDeps } from '../shared/deps.js';
import { BACKLOG_CAP } from '../../core/mail/backlog.js';
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
  readonly replyTo?: Email['replyTo'];
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

/**
 * Several mails (those of one event) as {@link queueEmail}: written in one statement, their deliveries
 * enqueued. Fair between accounts: a delivery's priority is minus the number of its account's mails queued
 * before it (its backlog, then its place in the event), and workers take the highest priority first. An
 * account's first mail (priority 0) thus goes before the 100th of another account's backlog (−99), whichever
 * was queued first, on both stores and with any number of workers (the order is the store's, not a process's).
 */
export async function queueEmails(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random'>,
  inputs: readonly QueueEmailInput[],
  counted: ReadonlyMap<string, number> = new Map(),
): Promise<Email[]> {
  const emails = inputs.map((input) => outboxEmail(deps, input));
  const backlog = await backlogsOf(deps, emails, counted);
  if (emails.length === 1) await deps.store.emails.insert(emails[0]!);
  else await deps.store.emails.insertMany(emails);
  for (const { id, accountId, status } of emails) {
    if (status !== 'queued') continue;
    const ahead = accountId === null ? 0 : backlog.get(accountId)!;
    if (accountId !== null) backlog.set(accountId, ahead + 1);
    const options = { singletonKey: id, priority: -Math.min(ahead, BACKLOG_CAP) };
    await deps.store.jobs.enqueue(DELIVER_EMAIL, { emailId: id } satisfies DeliverEmailJob, options);
  }
  return emails;
}

/**
 * The queued mails of each account of `emails`, before these (mails of no account are not counted); those
 * `counted` by the caller (read with its other reads, in the same round trip) are not read again.
 */
async function backlogsOf(
  deps: Pick<AppDeps, 'store'>,
  emails: readonly Email[],
  counted: ReadonlyMap<string, number>,
): Promise<Map<string, number>> {
  const backlog = new Map(counted);
  for (const { accountId } of emails)
    if (accountId !== null && !backlog.has(accountId))
      backlog.set(accountId, await deps.store.emails.countQueued(accountId, BACKLOG_CAP));
  return backlog;
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
    replyTo: input.replyTo ?? null,
    ...input.rendered,
    attachments: input.attachments ?? [],
    status: input.failure === undefined ? 'queued' : 'failed',
    attempts: 0,
    lastError: input.failure ?? null,
    created: deps.clock.now(),
    sentAt: null,
  };
}
