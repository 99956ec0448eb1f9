import { getEmail, listEmails } from '../app/mail/list-emails.js';
import { listSmsOutbox, type SmsOutboxEntry } from '../app/sms/list-sms-outbox.js';
import type { AppDeps } from '../app/shared/deps.js';
import { parse, UsageError } from './args.js';
import { isUuid } from '../core/text/uuid.js';

type Out = (line: string) => void;

const USAGE =
  'usage: proofseal outbox mail [--limit N] [--json] | outbox mail <id> [--html] [--json] | outbox sms [--limit N] [--json]';
/**
 * `outbox sms`: the newest SMS of the outbox, with their text while it is kept (in the default run, with no
 * SMS_URL, this is where a signer's one-time password can be read).
 * `outbox mail` lists the newest mails the service queued, sent or kept (the default run keeps them, as
 * `.eml` files under DATA_DIR/mail too); `outbox mail <id>` shows one, its text part or with `--html` its HTML.
 */
export async function outboxCommand(
  deps: Pick<AppDeps, 'store' | 'secretKey'>,
  args: string[],
  out: Out,
): Promise<void> {
  const [channel, ...rest] = args;
  if (channel === 'sms') return smsOutbox(deps, rest, out);
  if (channel !== 'mail') throw new UsageError(USAGE);
  const { values, positionals } = parse(rest, {
    limit: { type: 'string', default: '20' },
    json: { type: 'boolean' },
    html: { type: 'boolean' },
  });
  const [id] = positionals;
  if (id !== undefined) return showMail(deps, id, values, out);
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit expected a positive whole number, got "${String(values.limit)}"`);
  const mails = await listEmails(deps, { limit });
  if (values.json) return out(JSON.stringify(mails.map(({ html: _html, text: _text, ...m }) => m)));
  if (mails.length === 0) return out('no e-mail yet');
  for (const m of mails)
    out(
      `${m.id}  ${new Date(m.created).toISOString()}  ${m.status.padEnd(6)}  ${m.type}  ${m.to.address}  ${m.subject}`,
    );
}

async function showMail(
  deps: Pick<AppDeps, 'store'>,
  id: string,
  values: Record<string, unknown>,
  out: Out,
): Promise<void> {
  if (!isUuid(id)) throw new UsageError(`"${id}" is not an e-mail id\n${USAGE}`);
  const mail = await getEmail(deps, { id });
  if (values.json) return out(JSON.stringify(mail));
  out(`From: ${mail.from.name} <${mail.from.address}>`);
  out(`To: ${mail.to.name} <${mail.to.address}>`);
  if (mail.replyTo) out(`Reply-To: ${mail.replyTo.name} <${mail.replyTo.address}>`);
  out(`Subject: ${mail.subject}`);
  out(
    `Date: ${new Date(mail.created).toISOString()}  Status: ${mail.status}${mail.lastError ? `  Last error: ${mail.lastError}` : ''}`,
  );
  out('');
  out(values.html ? mail.html : mail.text);
}

async function smsOutbox(deps: Pick<AppDeps, 'store' | 'secretKey'>, args: string[], out: Out): Promise<void> {
  const { values } = parse(args, { limit: { type: 'string', default: '20' }, json: { type: 'boolean' } });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be 1 to 1000');
  const entries = await listSmsOutbox(deps, { limit });
  if (values.json) return out(JSON.stringify(entries, null, 2));
  if (entries.length === 0) return out('no SMS in the outbox');
  for (const e of entries) out(smsLine(e));
}

function smsLine(e: SmsOutboxEntry): string {
  const when = new Date(e.created).toISOString();
  const text = e.body ?? `(text erased${e.lastError ? `; ${e.lastError}` : ''})`;
  return `${when}  ${e.status.padEnd(7)} to ${e.to}  ${text}`;
}
