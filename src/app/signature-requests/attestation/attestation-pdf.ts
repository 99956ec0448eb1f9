/**
 * The attestation PDF of a COMPLETED or CLOSED request: made once its proof bundle is complete (every anchor
 * CONFIRMED, so the proofs it shows and carries never change), then kept and served as kept.
 */
import { fail } from '../../../core/errors.js';
import { SEALING_STATES } from '../../../core/signature-requests/states.js';
import { keptProofBundle, proofBundleJson } from '../proof-bundle.js';
import type { SignatureRequest } from '../signature-request.port.js';
import type { AppDeps } from '../../shared/deps.js';
import { attestationContent } from './attestation-content.js';

export type AttestationDeps = Pick<AppDeps, 'store' | 'clock' | 'secretKey' | 'chain' | 'attestation' | 'transparency'>;

/**
 * The kept attestation of a request, made and kept first when it is due and missing. Idempotent: two
 * callers racing keep one PDF and both get it.
 * @throws DomainError NOT_FOUND (unknown request), ATTESTATION_NOT_AVAILABLE (not COMPLETED/CLOSED),
 *   ATTESTATION_PENDING (sealed, proofs not all confirmed yet), NOT_READY (no attestation service wired)
 */
export async function attestationPdf(deps: AttestationDeps, requestId: string): Promise<Uint8Array> {
  const request = await deps.store.signatureRequests.findById(requestId);
  if (!request) fail('NOT_FOUND', `no signature request ${requestId}`);
  return attestationOf(deps, request);
}

/** The attestation of a request its owner reads (another account's request is NOT_FOUND). */
export async function getAttestation(
  deps: AttestationDeps,
  input: { accountId: string; id: string },
): Promise<Uint8Array> {
  const request = await deps.store.signatureRequests.findById(input.id, input.accountId);
  if (!request) fail('NOT_FOUND', `no signature request ${input.id}`);
  return attestationOf(deps, request);
}

async function attestationOf(deps: AttestationDeps, request: SignatureRequest): Promise<Uint8Array> {
  if (!SEALING_STATES.has(request.state))
    fail(
      'ATTESTATION_NOT_AVAILABLE',
      `request ${request.id} is ${request.state}: only COMPLETED and CLOSED ones have one`,
    );
  const kept = await deps.store.attestations.find(request.id);
  if (kept) return kept;
  if (!request.proofBundleComplete)
    fail('ATTESTATION_PENDING', `the proofs of ${request.id} are not all confirmed yet: the attestation follows them`);
  const service = deps.attestation ?? fail('NOT_READY', 'this server makes no attestations');
  const bundle = await keptProofBundle(deps, request);
  const model = await attestationContent({ ...deps, attestation: service }, request, bundle, proofBundleJson(bundle));
  const rendered = await service.renderer.render(model);
  const pdf = service.signer ? await service.signer.sign(rendered) : rendered;
  await deps.store.attestations.save(request.id, pdf, deps.clock.now());
  return (await deps.store.attestations.find(request.id)) ?? pdf;
}
