import type { PageOf } from '../anchoring/anchor.port.js';
import type { AppDeps } from '../shared/deps.js';
import type { SignatureRequest, SignatureRequestSearch } from './signature-request.port.js';

/** A page of the account's signature requests matching name (substring), state and hashToSign, newest first. */
export async function searchSignatureRequests(
  deps: Pick<AppDeps, 'store'>,
  query: SignatureRequestSearch,
): Promise<PageOf<SignatureRequest>> {
  return deps.store.signatureRequests.search(query);
}
