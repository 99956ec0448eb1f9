/**
 * Kept attestations and signed copies made before their proof bundle could carry everything (issue 31: the jobs
 * of `proofseal start` were composed without the node, so what they kept has no `bitcoinSpv`): found by reading
 * the bundle each carries, and made again from the bundle as it is now. `proofseal attestations [repair]`.
 * A re-made file is a new file (its bytes and hash differ); the one mailed before stays what it was: its original
 * part and PAdES signature still hold and its receipts still check against a node, but not offline.
 */
import { proofBundleAmong } from '../../../core/documents/signed-copy.js';
import type { PdfAttachmentReader } from '../pdf-attachments.port.js';
import { getProofBundle, missingSpv, type ProofBundle } from '../proof-bundle.js';
import { queueRequestMails, type RequestMailDeps } from '../request-mails.js';
import { attestationPdf, type AttestationDeps } from './attestation-pdf.js';
import { signedCopyForMail, signedCopyOf, type SignedCopyDeps } from './signed-copy.js';

export type RepairDeps = AttestationDeps &
  SignedCopyDeps &
  RequestMailDeps & { readonly pdfAttachments: PdfAttachmentReader };

/** A kept file whose bundle lacks what the request's bundle has now. */
export interface KeptEvidenceGap {
  readonly requestId: string;
  /** Which kept files lack it. */
  readonly files: ('attestation' | 'signed copy')[];
  /** The transactions whose SPV data the kept bundle lacks. */
  readonly missingSpv: string[];
}

const PAGE = 100;

/** Every kept attestation (and the signed copy beside it) whose bundle lacks SPV data the request's bundle now has. */
export async function findKeptEvidenceGaps(deps: RepairDeps): Promise<KeptEvidenceGap[]> {
  const gaps: KeptEvidenceGap[] = [];
  for (let after: string | null = null; ;) {
    const ids = await deps.store.attestations.keptIds(after, PAGE);
    for (const id of ids) {
      const gap = await gapOf(deps, id);
      if (gap) gaps.push(gap);
    }
    if (ids.length < PAGE) return gaps;
    after = ids[ids.length - 1]!;
  }
}

async function gapOf(deps: RepairDeps, requestId: string): Promise<KeptEvidenceGap | null> {
  const request = await deps.store.signatureRequests.findById(requestId);
  if (!request?.proofBundleComplete) return null;
  const now = await getProofBundle(deps, request);
  if (missingSpv(now).length > 0) return null; // not repairable yet: a worker has not stored every header
  const files: KeptEvidenceGap['files'] = [];
  const missing = new Set<string>();
  const kept = await deps.store.attestations.find(requestId);
  for (const [name, pdf] of [
    ['attestation', kept],
    ['signed copy', await keptSignedCopy(deps, requestId)],
  ] as const) {
    if (pdf === null) continue;
    const lacks = await lacksOf(deps, pdf);
    if (lacks.length === 0) continue;
    files.push(name);
    for (const txid of lacks) missing.add(txid);
  }
  return files.length === 0 ? null : { requestId, files, missingSpv: [...missing] };
}

/** The kept signed copy's bytes, or null when none is kept (never made here: only read). */
async function keptSignedCopy(deps: RepairDeps, requestId: string): Promise<Uint8Array | null> {
  const kept = await deps.store.signedCopies.find(requestId);
  if (!kept || !('suffix' in kept)) return null;
  const copy = await signedCopyForMail(deps, requestId, Number.POSITIVE_INFINITY);
  return copy && 'bytes' in copy ? copy.bytes : null;
}

/** What the bundle a kept PDF carries lacks: every transaction its receipts name without SPV data (all, unreadable). */
async function lacksOf(deps: RepairDeps, pdf: Uint8Array): Promise<string[]> {
  const files = await deps.pdfAttachments.embeddedFiles(pdf).catch(() => []);
  const bundle = proofBundleAmong(files) as ProofBundle | null;
  if (bundle === null) return ['(no readable bundle)'];
  return missingSpv(bundle);
}

/**
 * Makes the files of a gap again from the request's bundle as it is now, and queues the attestation mail again in
 * the transaction that forgets the old files (its attachments are made when it is sent, if not before: a crash
 * after that transaction loses neither the repair nor the mail).
 */
export async function repairKeptEvidence(deps: RepairDeps, gap: KeptEvidenceGap): Promise<void> {
  const request = await deps.store.signatureRequests.findById(gap.requestId);
  if (!request) return;
  await deps.store.transaction(async (tx) => {
    await tx.attestations.remove(request.id);
    await tx.signedCopies.remove(request.id);
    await queueRequestMails(tx, deps, request, { kind: 'attestation' });
  });
  await attestationPdf(deps, request.id);
  await signedCopyOf(deps, request.id);
}
