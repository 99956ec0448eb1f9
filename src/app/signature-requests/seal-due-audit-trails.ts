import { sealAuditTrail, type SealDeps } from './audit-trail.js';

/**
 * Seals the audit trails of finished requests that wait for their seal (up to `limit`), one after the
 * other: what the signature-request tick does when a platform key is configured.
 * @returns how many were sealed
 * @throws DomainError as `sealAuditTrail` does
 */
export async function sealDueAuditTrails(deps: SealDeps, input: { limit: number }): Promise<number> {
  let sealed = 0;
  for (const requestId of await deps.store.signatureRequests.awaitingSeal(input.limit))
    if ((await sealAuditTrail(deps, { requestId })) === 'sealed') sealed++;
  return sealed;
}
