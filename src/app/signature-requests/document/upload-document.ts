import { CHUNK_BYTES, objectNameOf, SALT_BYTES } from '../../../core/crypto/chunk-box.js';
import { cleanFileName, cleanMediaType } from '../../../core/documents/file-headers.js';
import { isPdf } from '../../../core/documents/pdf-kind.js';
import { fail } from '../../../core/errors.js';
import type { AppDeps } from '../../shared/deps.js';
import type { Store } from '../../shared/store.port.js';
import type { SignatureRequest } from '../signature-request.port.js';
import type { DocumentDeps, DocumentInspector, DocumentObjectWriter, RequestDocument } from './document.port.js';
import { writeSealed } from './sealed-stream.js';

export interface UploadDocumentInput {
  readonly accountId: string;
  readonly id: string;
  /** The file's bytes, read once, as they arrive. */
  readonly body: AsyncIterable<Uint8Array>;
  /** The upload's own name (multipart filename or `?fileName=`); kept cleaned. */
  readonly fileName?: string;
  /** The upload's Content-Type; anything but a bare `type/subtype` is kept as application/octet-stream. */
  readonly contentType?: string;
  readonly maxBytes: number;
  /** The URL the file is downloaded from (recorded as the request's fileURL). */
  readonly fileUrl: string;
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'> & { readonly documents?: DocumentDeps };

/**
 * Why a request may not take an upload now, or null. A DRAFT takes one, and replaces it; a request activated
 * at creation (stateless: created without a DRAFT state) takes its first while no signer has signed.
 */
export function uploadRefusal(request: SignatureRequest, { hasFile }: { readonly hasFile: boolean }): string | null {
  if (request.state === 'DRAFT') return null;
  if (request.state !== 'PENDING' && request.state !== 'IN_PROGRESS') return `the request is ${request.state}`;
  if (hasFile) return `the request is ${request.state}: its file is replaced in DRAFT only`;
  if (request.signers.some((s) => s.signedOn !== null)) return 'a signer has signed already';
  return null;
}

async function checkUploadable(store: Store, accountId: string, id: string, lock: boolean): Promise<SignatureRequest> {
  const request = lock
    ? await store.signatureRequests.lockById(id, accountId)
    : await store.signatureRequests.findById(id, accountId);
  if (!request) fail('NOT_FOUND', `no signature request ${id}`);
  const kept = await store.requestDocuments.find(id);
  const refusal = uploadRefusal(request, { hasFile: kept !== null && kept.deleted === null });
  if (refusal) fail('NOT_EDITABLE', `${refusal}; the file is uploaded to a DRAFT (or at creation)`);
  return request;
}

/**
 * Uploads the file to sign of one of the account's requests: streamed, hashed and sealed chunk by chunk
 * into the document store (never more than one chunk in memory), checked against `hashToSign`, then
 * recorded on the request with the request's row lock (its state checked again). Nothing is kept of a
 * refused upload.
 * @throws DomainError NOT_FOUND (unknown or another account's), NOT_EDITABLE (not DRAFT, or stateless with a
 *   file or a signature already), PAYLOAD_TOO_LARGE, EMPTY_DOCUMENT, HASH_MISMATCH, INVALID_DOCUMENT (a PDF whose
 *   structure breaks the service's bounds: see `DocumentInspector`), NOT_READY (no document store)
 */
export async function uploadDocument(deps: Deps, input: UploadDocumentInput): Promise<SignatureRequest> {
  const request = await checkUploadable(deps.store, input.accountId, input.id, false);
  const documents = deps.documents ?? fail('NOT_READY', 'no document store is configured');
  const writer = await documents.objects.begin(deps.clock.now());
  let committed = false;
  try {
    const salt = deps.random.bytes(SALT_BYTES);
    const kept = documents.inspector ? keptWhole(input.body, input.contentType) : null;
    const written = await writeSealed(kept?.body ?? input.body, writer, {
      secretKey: deps.secretKey,
      salt,
      maxBytes: input.maxBytes,
    });
    if (written.size === 0) fail('EMPTY_DOCUMENT', 'the file is empty (0 bytes)');
    const expected = request.hashToSign.toLowerCase();
    if (written.sha256 !== expected)
      fail('HASH_MISMATCH', `the file's SHA-256 is ${written.sha256}; the request's hashToSign is ${expected}`);
    if (kept && documents.inspector) await checkPdf(documents.inspector, kept.bytes());
    const name = objectNameOf(deps.secretKey, written.sha256);
    const now = deps.clock.now();
    // Published before the transaction (the object store is not the transaction's connection); a request
    // that stopped taking uploads meanwhile leaves it to be removed below.
    await writer.commit(name, { salt, size: written.size, chunkBytes: CHUNK_BYTES }, now);
    committed = true;
    const meta = { fileName: cleanFileName(input.fileName) ?? request.fileName ?? 'document', uploaded: now };
    const document = { requestId: input.id, objectName: name, sha256: written.sha256, size: written.size };
    return await attachOrDrop(deps, documents, input, {
      ...document,
      ...meta,
      contentType: cleanMediaType(input.contentType),
    });
  } finally {
    if (!committed) await abortQuietly(writer);
  }
}

/** Records the file on the request under its row lock, its state checked again; on a refusal, the object is dropped unless used. */
async function attachOrDrop(
  deps: Deps,
  documents: DocumentDeps,
  input: UploadDocumentInput,
  document: Omit<RequestDocument, 'deleted'>,
): Promise<SignatureRequest> {
  try {
    return await deps.store.transaction(async (tx) => {
      await checkUploadable(tx, input.accountId, input.id, true);
      await tx.requestDocuments.attach(document, input.fileUrl);
      return (await tx.signatureRequests.findById(input.id)) ?? fail('NOT_FOUND', `no signature request ${input.id}`);
    });
  } catch (err) {
    if (!(await deps.store.requestDocuments.isReferenced(document.objectName)))
      await documents.objects.remove(document.objectName, document.uploaded + 1);
    throw err;
  }
}

/**
 * The body as it is read, and the chunks of a PDF (by its type or its first bytes) kept as well: a PDF is checked
 * whole once it is written (the signed copy reads it whole too), so its upload holds at most `maxBytes` until then.
 */
function keptWhole(
  body: AsyncIterable<Uint8Array>,
  contentType: string | undefined,
): { body: AsyncIterable<Uint8Array>; bytes(): Uint8Array | null } {
  const type = cleanMediaType(contentType);
  let chunks: Uint8Array[] = [];
  let size = 0;
  let pdf: boolean | undefined;
  // Decided by the type, or once the first five bytes are in (`%PDF-`); the rest of another file is not kept.
  const decide = () => (pdf ??= isPdf(type, Buffer.concat(chunks)));
  async function* tee(): AsyncIterable<Uint8Array> {
    for await (const chunk of body) {
      if (pdf !== false) chunks.push(chunk);
      size += chunk.length;
      if (pdf === undefined && size >= 5 && !decide()) chunks = [];
      yield chunk;
    }
  }
  return { body: tee(), bytes: () => (decide() ? new Uint8Array(Buffer.concat(chunks)) : null) };
}

/** A PDF whose structure breaks a bound is refused before anyone is invited to sign it; an unreadable one is let through. */
async function checkPdf(inspector: DocumentInspector, pdf: Uint8Array | null): Promise<void> {
  if (pdf === null) return;
  const found = await inspector.inspect(pdf);
  if (found.kind === 'refused') fail('INVALID_DOCUMENT', `the PDF cannot be accepted: ${found.reason}`);
}

async function abortQuietly(writer: DocumentObjectWriter): Promise<void> {
  try {
    await writer.abort();
  } catch {
    // What could not be dropped now is dropped by the retention job's sweep of abandoned writes.
  }
}
