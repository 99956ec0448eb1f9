import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, type Origin } from './audit.js';
import { activateIfDue } from './lifecycle.js';
import { checkRequestInput } from './request-input.js';
import { newSigners } from './signer-secrets.js';
import type { SignatureRequest, SignatureRequestInput } from './signature-request.port.js';

export interface CreateSignatureRequestInput extends SignatureRequestInput {
  readonly accountId: string;
  /** Who asks (the account's e-mail), for the audit trail. */
  readonly actor: string;
  /** `DRAFT` keeps the request editable; absent (or PENDING / IN_PROGRESS) activates it at once. */
  readonly state?: 'DRAFT' | 'PENDING' | 'IN_PROGRESS';
  readonly origin?: Origin;
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'httpClient' | 'mail'>;

/**
 * Creates a signature request: DRAFT, or activated at once (IN_PROGRESS, or PENDING until its
 * activation date). The request, its signers, the CREATED/ACTIVATED events and the callback are
 * written in one transaction.
 * @throws DomainError VALIDATION_FAILED (no signer to activate, bad signer), INVALID_HASH, TOO_MANY_SIGNEES,
 *   TOO_MANY_WATCHERS, DUPLICATE_SIGNEE, VARS_TOO_LARGE, INVALID_URL, FORBIDDEN_URL, INVALID_DEADLINE
 */
export async function createSignatureRequest(
  deps: Deps,
  input: CreateSignatureRequestInput,
): Promise<SignatureRequest> {
  const now = deps.clock.now();
  const checked = await checkRequestInput(deps, input, now, input.actor);
  const draft = input.state === 'DRAFT';
  if (!draft && checked.signers.length === 0)
    fail('VALIDATION_FAILED', 'a request activated at once needs "authorizedSignees" (or create it with state DRAFT)');
  const id = deps.random.uuid();
  const signers = newSigners(deps, id, checked.signers);
  return deps.store.transaction(async (tx) => {
    const base = { id, accountId: input.accountId, created: now, ...checked.fields, watchers: [...checked.watchers] };
    await tx.signatureRequests.insert({ ...base, state: draft ? 'DRAFT' : 'PENDING' }, signers);
    await recordEvent(tx, id, { type: 'CREATED', date: now, actor: input.actor, origin: input.origin });
    const created = await tx.signatureRequests.findById(id);
    if (!created) throw new Error(`signature request ${id} vanished inside its own transaction`);
    return activateIfDue(tx, created, now, deps);
  });
}
