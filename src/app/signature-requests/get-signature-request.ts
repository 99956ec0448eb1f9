import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import { recordEvent, signerActor, type Origin } from './audit.js';
import { findSigner } from './signer-secrets.js';
import type { RequestAndSigner, SignatureRequest } from './signature-request.port.js';

/**
 * One of the account's signature requests.
 * @throws DomainError NOT_FOUND when unknown or another account's
 */
export async function getSignatureRequest(
  deps: Pick<AppDeps, 'store'>,
  input: { accountId: string; id: string },
): Promise<SignatureRequest> {
  const request = await deps.store.signatureRequests.findById(input.id, input.accountId);
  if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
  return request;
}

/**
 * A signature request as one signer opens it with its secret. The first opening is recorded
 * (VIEWED, with IP and user agent) in the same transaction as the signer's `viewedOn`.
 * @throws DomainError NOT_FOUND for a wrong, revoked or foreign signer secret, or an unknown request (one answer)
 */
export async function getSignatureRequestAsSigner(
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
  input: { id: string; signerSecret: string; origin?: Origin },
): Promise<RequestAndSigner> {
  const found = await findSigner(deps, { requestId: input.id, signerSecret: input.signerSecret });
  if (found.signer.viewedOn !== null) return found;
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (!(await tx.signatureRequests.markViewed(found.signer.id, now))) return;
    const actor = signerActor(found.signer);
    await recordEvent(tx, input.id, { type: 'VIEWED', date: now, actor, signer: found.signer, origin: input.origin });
  });
  return { ...found, signer: { ...found.signer, viewedOn: now } };
}
