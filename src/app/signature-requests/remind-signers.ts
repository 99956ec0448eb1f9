import { RateLimitedError, fail } from '../../core/errors.js';
import { recordEvent, type Origin } from './audit.js';
import { remindWaitMs, retryAfterSeconds } from './mail-limits.js';
import { queueRequestMails } from './request-mails.js';
import type { SignatureRequest, Signer } from './signature-request.port.js';
import type { Store } from '../shared/store.port.js';
import { type OwnerActionDeps, type OwnerInput } from './owner-input.js';

/**
 * Reminds the signers with these e-mails (all who have not signed when the list is empty): one
 * REMINDED event and one reminder mail each. A signer is reminded at most once an hour (by the owner or
 * the platform): a list that names one reminded within the hour reminds nobody (429, Retry-After: when every
 * signer named may be reminded); the empty list reminds those who may be, and is refused only when none may
 * (Retry-After: when the first may).
 * @throws DomainError NOT_FOUND, SIGNING_CLOSED (not IN_PROGRESS), VALIDATION_FAILED (an e-mail that is no
 *   unsigned signer's); RateLimitedError (RATE_LIMITED)
 * @returns the e-mails reminded
 */
export async function remindSigners(
  deps: OwnerActionDeps,
  input: OwnerInput & { emails: readonly string[] },
): Promise<string[]> {
  return deps.store.transaction(async (tx) => {
    const request = await tx.signatureRequests.lockById(input.id, input.accountId);
    if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
    if (request.state !== 'IN_PROGRESS') fail('SIGNING_CLOSED', `the request is ${request.state}, not IN_PROGRESS`);
    const unsigned = request.signers.filter((s) => s.signedOn === null && s.email !== null);
    const wanted = new Set(input.emails.map((e) => e.toLowerCase()));
    const targets = wanted.size === 0 ? unsigned : unsigned.filter((s) => wanted.has(s.email!.toLowerCase()));
    if (targets.length < wanted.size)
      fail('VALIDATION_FAILED', 'every e-mail must be that of a signer who has not signed');
    if (targets.length === 0) return [];
    const date = deps.clock.now();
    const events = await tx.signatureRequests.events(request.id);
    const waits = targets.map((s) => remindWaitMs(events, s.id, date));
    const due = targets.filter((_, i) => waits[i] === 0);
    if (due.length === 0 || (wanted.size > 0 && due.length < targets.length)) {
      const wait = retryAfterSeconds(wanted.size > 0 ? Math.max(...waits) : Math.min(...waits));
      throw new RateLimitedError(`a signer is reminded at most once an hour; retry in ${wait} s`, wait);
    }
    return remind(tx, deps, { request, signers: due, date, actor: input.actor, origin: input.origin });
  });
}

async function remind(
  tx: Store,
  deps: OwnerActionDeps,
  input: { request: SignatureRequest; signers: readonly Signer[]; date: number; actor: string; origin?: Origin },
): Promise<string[]> {
  const { request, signers: signers, date } = input;
  for (const signer of signers)
    await recordEvent(tx, request.id, {
      type: 'REMINDED',
      date,
      actor: input.actor,
      signer: signer,
      origin: input.origin,
    });
  await queueRequestMails(tx, deps, request, { kind: 'reminder', signers: signers });
  return signers.map((s) => s.email!);
}
