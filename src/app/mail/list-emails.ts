import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { Email } from './email.port.js';

/** The newest mails of the outbox (all accounts): what an operator reads with `proofseal outbox mail`. */
export function listEmails(
  deps: Pick<AppDeps, 'store'>,
  input: { limit: number; requestId?: string },
): Promise<Email[]> {
  return deps.store.emails.list({ limit: Math.min(Math.max(input.limit, 1), 1000), requestId: input.requestId });
}

/** One mail of the outbox. @throws DomainError NOT_FOUND */
export async function getEmail(deps: Pick<AppDeps, 'store'>, input: { id: string }): Promise<Email> {
  return (await deps.store.emails.findById(input.id)) ?? fail('NOT_FOUND', `no e-mail ${input.id}`);
}
