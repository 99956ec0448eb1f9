import { getEmail, listEmails } from '../app/mail/list-emails.js';
import type { AppDeps } from '../app/shared/deps.js';
import { parse, UsageError } from './args.js';

type Out = (line: string) => void;

const USAGE = 'usage: proofseal outbox mail [--limit N] [--json] | outbox mail <id> [--html] [--json]';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `outbox mail` lists the newest mails the service queued, sent or kept (the default run keeps them, as
 * `.eml` files under DATA_DIR/mail too); `outbox mail <id>` shows one, its text part or with `--html` its HTML.
 */
export async function outboxCommand(deps: Pick<AppDeps, 'store'>, args: string[], out: Out): Promise<void> {
  const [channel, ...rest] = args;
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
  if (!UUID.test(id)) throw new UsageError(`"${id}" is not an e-mail id\n${USAGE}`);
  const m = await getEmail(deps, { id });
  if (values.json) return out(JSON.stringify(m));
  out(`From: ${m.from.name} <${m.from.address}>`);
  out(`To: ${m.to.name} <${m.to.address}>`);
  out(`Subject: ${m.subject}`);
  out(
    `Date: ${new Date(m.created).toISOString()}  Status: ${m.status}${m.lastError ? `  Last error: ${m.lastError}` : ''}`,
  );
  out('');
  out(values.html ? m.html : m.text);
}
