import { listSmsOutbox, type SmsOutboxEntry } from '../app/sms/list-sms-outbox.js';
import type { AppDeps } from '../app/shared/deps.js';
import { parse, UsageError } from './args.js';

type Out = (line: string) => void;

const USAGE = 'usage: proofseal outbox sms [--limit N] [--json]';

/**
 * `outbox sms`: the most recent SMS of the outbox, newest first, with their text while it is kept
 * (in the default run, with no SMS_URL, this is where a signer's one-time password can be read).
 */
export async function outboxCommand(deps: Pick<AppDeps, 'store' | 'secretKey'>, args: string[], out: Out) {
  const [kind, ...rest] = args;
  if (kind !== 'sms') throw new UsageError(USAGE);
  const { values } = parse(rest, { limit: { type: 'string', default: '20' }, json: { type: 'boolean' } });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be 1 to 1000');
  const entries = await listSmsOutbox(deps, { limit });
  if (values.json) return out(JSON.stringify(entries, null, 2));
  if (entries.length === 0) return out('no SMS in the outbox');
  for (const e of entries) out(line(e));
}

function line(e: SmsOutboxEntry): string {
  const when = new Date(e.created).toISOString();
  const text = e.body ?? `(text erased${e.lastError ? `; ${e.lastError}` : ''})`;
  return `${when}  ${e.status.padEnd(7)} to ${e.to}  ${text}`;
}
