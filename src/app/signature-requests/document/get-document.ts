import { fail } from '../../../core/errors.js';
import type { AppDeps } from '../../shared/deps.js';
import { getSignatureRequest } from '../get-signature-request.js';
import { findSharedRequest } from '../get-shared-request.js';
import { findSigner } from '../signer-secrets.js';
import type { SignatureRequest } from '../signature-request.port.js';
import type { DocumentDeps } from './document.port.js';
import { readSealed } from './sealed-stream.js';

/** A request's file, ready to be served whole or by range. */
export interface DocumentDownload {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
  /** The bytes `start`..`end` (inclusive), opened chunk by chunk as they are read. */
  read(start: number, end: number): AsyncIterable<Buffer>;
}

type Deps = Pick<AppDeps, 'store' | 'secretKey'> & { readonly documents?: DocumentDeps };

/** Who asks for the file: the owner, a signer by its secret, or the holder of the sharing link. */
export type DocumentReader =
  { readonly accountId: string } | { readonly signerSecret: string } | { readonly sharingToken: string };

async function requestFor(deps: Deps, id: string, reader: DocumentReader): Promise<SignatureRequest> {
  if ('accountId' in reader) return getSignatureRequest(deps, { accountId: reader.accountId, id });
  if ('signerSecret' in reader)
    return (await findSigner(deps, { requestId: id, signerSecret: reader.signerSecret })).request;
  return findSharedRequest(deps, { id, token: reader.sharingToken });
}

/**
 * The file to sign of request `id`, for its owner, one of its signers or its sharing link. A file that no
 * longer matches the request's hashToSign (a DRAFT whose hash was changed after the upload) is not served.
 * @throws DomainError NOT_FOUND (unknown request, another account's, wrong signer secret or token: one answer),
 *   NO_DOCUMENT (none uploaded, or deleted by the retention job), NOT_READY (no document store)
 */
export async function getDocument(
  deps: Deps,
  input: { id: string; reader: DocumentReader },
): Promise<DocumentDownload> {
  const request = await requestFor(deps, input.id, input.reader);
  const documents = deps.documents ?? fail('NOT_READY', 'no document store is configured');
  const document = await deps.store.requestDocuments.find(request.id);
  if (!document || document.sha256 !== request.hashToSign.toLowerCase())
    fail('NO_DOCUMENT', `no file was uploaded for signature request ${request.id}`);
  if (document.deleted !== null)
    fail('NO_DOCUMENT', `the file of signature request ${request.id} was deleted (retention)`);
  const header = await documents.objects.header(document.objectName);
  if (!header) fail('NO_DOCUMENT', `the file of signature request ${request.id} is missing from the document store`);
  const { objectName } = document;
  return {
    fileName: document.fileName,
    contentType: document.contentType,
    size: document.size,
    sha256: document.sha256,
    read: (start, end) => readSealed(documents.objects, objectName, header, { secretKey: deps.secretKey, start, end }),
  };
}
