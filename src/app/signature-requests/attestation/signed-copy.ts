/**
 * The signed copy of an uploaded PDF (docs/attestation.md): the original's bytes unchanged, then one
 * incremental update appending the attestation's pages and attaching the proof bundle, then the PAdES
 * signature (a further update covering the whole file). Made once the proof bundle is complete, like the
 * attestation, and kept as the part after the original: the original stays in the document store, and the
 * signed copy is served as the two read one after the other.
 */
import { createHash } from 'node:crypto';
import { isPdf } from '../../../core/documents/pdf-kind.js';
import { fail } from '../../../core/errors.js';
import { SEALING_STATES } from '../../../core/signature-requests/states.js';
import type { AppDeps } from '../../shared/deps.js';
import { getDocument, type DocumentDownload, type DocumentReader } from '../document/get-document.js';
import type { DocumentDeps } from '../document/document.port.js';
import { keptProofBundle, proofBundleJson } from '../proof-bundle.js';
import type { SignatureRequest } from '../signature-request.port.js';
import { attestationContent } from './attestation-content.js';
import type { KeptSignedCopy } from './attestation.port.js';

export type SignedCopyDeps = Pick<
  AppDeps,
  'store' | 'clock' | 'secretKey' | 'chain' | 'attestation' | 'transparency'
> & {
  readonly documents?: DocumentDeps;
};

async function readAll(doc: DocumentDownload, end: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of doc.read(0, end)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The signed copy of request `id` for its owner, a signer (by its secret) or the sharing link: made and kept first
 * when due. Served as a download: its name is the original's with `-signed` before `.pdf`.
 * @throws DomainError NOT_FOUND (unknown request, another account's, wrong signer secret or token), NO_DOCUMENT
 *   (none uploaded, or deleted by retention), SIGNED_COPY_NOT_AVAILABLE (not COMPLETED/CLOSED, not a PDF, or
 *   a PDF that cannot take an update: the reason says which), NO_SIGNATURES (closed with no signature: nothing
 *   was signed, so nothing is called signed), ATTESTATION_PENDING (proofs not all confirmed
 *   yet), NOT_READY (no document store or attestation service, or the PDF cannot be signed now)
 */
export async function getSignedCopy(
  deps: SignedCopyDeps,
  input: { id: string; reader: DocumentReader },
): Promise<DocumentDownload> {
  const original = await getDocument(deps, input);
  const request =
    (await deps.store.signatureRequests.findById(input.id)) ?? fail('NOT_FOUND', `no request ${input.id}`);
  const kept = await keptOrMade(deps, request, original);
  if ('refusal' in kept) fail('SIGNED_COPY_NOT_AVAILABLE', kept.refusal);
  const { suffix } = kept;
  return {
    fileName: signedName(original.fileName),
    contentType: 'application/pdf',
    size: kept.size,
    sha256: kept.sha256,
    async *read(start, end) {
      if (start < original.size) yield* original.read(start, Math.min(end, original.size - 1));
      if (end >= original.size)
        yield Buffer.from(suffix.subarray(Math.max(0, start - original.size), end - original.size + 1));
    },
  };
}

/**
 * The signed copy of a request, made and kept first when due, as its owner reads it; null when the request has
 * none (no uploaded file, not a PDF or one that cannot take an update, nobody signed, deleted by retention, no
 * document store).
 * @throws DomainError ATTESTATION_PENDING or NOT_READY while it cannot be made yet (a job or mail tries again)
 */
export async function signedCopyOf(deps: SignedCopyDeps, requestId: string): Promise<DocumentDownload | null> {
  const request = await deps.store.signatureRequests.findById(requestId);
  const document = request && (await deps.store.requestDocuments.find(request.id));
  if (!request || !document || document.deleted !== null || !deps.documents) return null;
  try {
    return await getSignedCopy(deps, { id: request.id, reader: { accountId: request.accountId } });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SIGNED_COPY_NOT_AVAILABLE' || code === 'NO_DOCUMENT' || code === 'NO_SIGNATURES') return null;
    throw err;
  }
}

/**
 * The signed copy's bytes for the attestation mail, or null when there is none or it is larger than
 * `maxBytes` (the attestation then goes alone), or the kept reason why its PDF could have none (issue 32: the
 * mail says it).
 */
export async function signedCopyForMail(
  deps: SignedCopyDeps,
  requestId: string,
  maxBytes: number,
): Promise<{ fileName: string; bytes: Uint8Array } | { refusal: string } | null> {
  const copy = await signedCopyOf(deps, requestId);
  if (!copy) {
    const kept = await deps.store.signedCopies.find(requestId);
    return kept && 'refusal' in kept ? { refusal: kept.refusal } : null;
  }
  if (copy.size > maxBytes) return null;
  return { fileName: copy.fileName, bytes: await readAll(copy, copy.size - 1) };
}

/** `contract.pdf` → `contract-signed.pdf`. */
export function signedName(fileName: string): string {
  const base = fileName.replace(/\.pdf$/i, '');
  return `${base || 'document'}-signed.pdf`;
}

async function keptOrMade(
  deps: SignedCopyDeps,
  request: SignatureRequest,
  original: DocumentDownload,
): Promise<KeptSignedCopy> {
  if (!SEALING_STATES.has(request.state))
    fail(
      'SIGNED_COPY_NOT_AVAILABLE',
      `request ${request.id} is ${request.state}: the signed copy is made once it is COMPLETED or CLOSED`,
    );
  if (request.signers.every((s) => s.signedOn === null))
    fail(
      'NO_SIGNATURES',
      `request ${request.id} was ${request.state} with no signature: there is no signed copy, since nothing was signed (its attestation says what happened)`,
    );
  const head = await readAll(original, Math.min(original.size, 5) - 1);
  if (!isPdf(original.contentType, head))
    fail('SIGNED_COPY_NOT_AVAILABLE', `the file of request ${request.id} is not a PDF: it has no signed copy`);
  const kept = (await deps.store.signedCopies.find(request.id)) ?? (await makeAndKeep(deps, request, original));
  // The file is replaced in DRAFT only, so a kept copy always extends it; never serve one that does not.
  if (kept.originalSha256 !== original.sha256)
    fail('SIGNED_COPY_NOT_AVAILABLE', `the signed copy of request ${request.id} was made of another file`);
  return kept;
}

async function makeAndKeep(
  deps: SignedCopyDeps,
  request: SignatureRequest,
  original: DocumentDownload,
): Promise<KeptSignedCopy> {
  if (!request.proofBundleComplete)
    fail('ATTESTATION_PENDING', `the proofs of ${request.id} are not all confirmed yet: the signed copy follows them`);
  const made = await makeSignedCopy(deps, request, original);
  await deps.store.signedCopies.save(request.id, made, deps.clock.now());
  return (await deps.store.signedCopies.find(request.id)) ?? made;
}

async function makeSignedCopy(
  deps: SignedCopyDeps,
  request: SignatureRequest,
  original: DocumentDownload,
): Promise<KeptSignedCopy> {
  const originalSha256 = original.sha256;
  const service = deps.attestation ?? fail('NOT_READY', 'this server makes no attestations');
  const assembler = service.copies ?? fail('NOT_READY', 'this server makes no signed copies');
  const bytes = await readAll(original, original.size - 1);
  const bundle = await keptProofBundle(deps, request);
  const json = proofBundleJson(bundle);
  const model = await attestationContent({ ...deps, attestation: service }, request, bundle, json);
  const pages = await service.renderer.render(model);
  let signed: Uint8Array;
  try {
    const updated = await assembler.assemble(bytes, pages, {
      fileName: model.bundle.fileName,
      bytes: new TextEncoder().encode(json),
      date: model.producedAt,
    });
    signed = service.signer ? await service.signer.sign(updated) : updated;
  } catch (err) {
    // The PDF broke a bound or could not be read (issue 32): a final state, kept, never tried again.
    if ((err as { code?: string }).code === 'SIGNED_COPY_NOT_AVAILABLE')
      return { originalSha256, refusal: (err as Error).message };
    throw err;
  }
  if (!Buffer.from(signed.subarray(0, bytes.length)).equals(Buffer.from(bytes)))
    throw new Error('the signed copy does not start with the original bytes');
  return {
    originalSha256,
    suffix: signed.subarray(bytes.length),
    sha256: createHash('sha256').update(signed).digest('hex'),
    size: signed.length,
  };
}
