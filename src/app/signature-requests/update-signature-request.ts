import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, type Origin } from './audit.js';
import { checkRequestInput } from './request-input.js';
import { newSigners } from './signer-secrets.js';
import type { SignatureRequest, SignatureRequestInput } from './signature-request.port.js';

export interface UpdateSignatureRequestInput extends SignatureRequestInput {
  readonly accountId: string;
  readonly id: string;
  readonly actor: string;
  readonly origin?: Origin;
}

/**
 * Replaces a DRAFT request's fields, signers and watchers (a full replacement, like the creation body).
 * Signers get new secrets: a secret (link) handed out before is revoked.
 * @throws DomainError NOT_FOUND, NOT_EDITABLE (not DRAFT), and the input errors of creation
 */
export async function updateSignatureRequest(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'httpClient' | 'mail'>,
  input: UpdateSignatureRequestInput,
): Promise<SignatureRequest> {
  const now = deps.clock.now();
  const checked = await checkRequestInput(deps, input, now, input.actor);
  return deps.store.transaction(async (tx) => {
    const current = await tx.signatureRequests.lockById(input.id, input.accountId);
    if (!current) fail('NOT_FOUND', `no signature request ${input.id}`);
    if (current.state !== 'DRAFT') fail('NOT_EDITABLE', `the request is ${current.state}; only a DRAFT is changed`);
    const signers = newSigners(deps, input.id, checked.signers);
    await tx.signatureRequests.replaceDraft(input.id, checked.fields, signers, checked.watchers, now);
    await recordEvent(tx, input.id, { type: 'UPDATED', date: now, actor: input.actor, origin: input.origin });
    const updated = await tx.signatureRequests.findById(input.id);
    if (!updated) throw new Error(`signature request ${input.id} vanished inside its own transaction`);
    return updated;
  });
}
