/** The files attached to a signature request's mails, produced when the mail is sent. */
import { signedCopyMissingNote } from '../../core/documents/signed-copy-note.js';
import { fail } from '../../core/errors.js';
import { getReceipt } from '../anchoring/get-receipt.js';
import type { AttachmentSource } from '../mail/deliver-email.js';
import type { Attachment, AttachmentRef } from '../mail/email.port.js';
import type { AppDeps } from '../shared/deps.js';

/**
 * The attestation PDF of a COMPLETED or CLOSED request (the attestation feature exports it as
 * `attestationPdf(deps, requestId)`). It may throw while the attestation is not ready: the mail is retried.
 */
export type AttestationProducer = (requestId: string) => Promise<Uint8Array>;

/**
 * The signed copy of a request's uploaded PDF, for the attestation mail; null when it has none (or one too
 * large to mail), or why its PDF could not have one: the attestation goes then (with that reason).
 */
export type SignedCopyProducer = (
  requestId: string,
) => Promise<{ fileName: string; bytes: Uint8Array } | { refusal: string } | null>;

/**
 * The attachment source of the mail delivery job: a signer's proof (its signature anchor's Chainpoint
 * receipt, as JSON) and the request's attestation PDF, or the signed copy of its uploaded PDF when it has one. Without an attestation producer, an attestation
 * mail fails its attempt (and is retried with backoff) rather than go without its PDF.
 */
export function requestAttachments(
  deps: Pick<AppDeps, 'store'>,
  producers: { readonly attestation?: AttestationProducer; readonly signedCopy?: SignedCopyProducer } = {},
): AttachmentSource {
  return async (ref: AttachmentRef): Promise<Attachment> => {
    if (ref.kind === 'signer-proof') return signerProof(deps, ref);
    // The signed copy holds the attestation's pages and the bundle: it goes instead of the attestation.
    const copy = producers.signedCopy ? await producers.signedCopy(ref.requestId) : null;
    if (copy && 'bytes' in copy)
      return { filename: copy.fileName, contentType: 'application/pdf', content: Buffer.from(copy.bytes) };
    if (!producers.attestation) throw new Error('no attestation producer is wired into this server yet');
    const pdf = await producers.attestation(ref.requestId);
    const attestation = { filename: 'attestation.pdf', contentType: 'application/pdf', content: Buffer.from(pdf) };
    if (!copy) return attestation;
    const request = await deps.store.signatureRequests.findById(ref.requestId);
    return { ...attestation, note: signedCopyMissingNote(request?.lang ?? null, copy.refusal) };
  };
}

/**
 * The receipt of the signer's signature, as `proof-<signer>.json`.
 * @throws DomainError NOT_FOUND (unknown request or signer, or not signed), NOT_READY (no complete receipt yet)
 */
async function signerProof(deps: Pick<AppDeps, 'store'>, ref: AttachmentRef): Promise<Attachment> {
  const request = await deps.store.signatureRequests.findById(ref.requestId);
  const signer = request?.signers.find((s) => s.id === ref.signerId);
  if (!signer?.anchorId) fail('NOT_FOUND', `no signature of signer ${ref.signerId} in request ${ref.requestId}`);
  const result = await getReceipt(deps, { id: signer.anchorId });
  if (!result.complete) fail('NOT_READY', `the receipt of anchor ${signer.anchorId} is not complete yet`);
  const name = signer.commonName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'signer';
  const content = Buffer.from(`${JSON.stringify(result.receipt, null, 2)}\n`, 'utf8');
  return { filename: `proof-${name}.json`, contentType: 'application/json', content };
}
