import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { HashFilter, PageOf } from './anchor.port.js';

export interface ListPublicAnchorIdsInput extends HashFilter {
  readonly page: number;
  readonly size: number;
}

/**
 * Ids of the PUBLIC anchors of a hash; private anchors are never listed. `hash` matches the anchored
 * hash and `signedHash` the signed hash, so a client that asks both for one file hash (Woleet's
 * `WoleetDAB`) gets each anchor once.
 * @throws DomainError VALIDATION_FAILED when neither `hash` nor `signedHash` is given
 */
export async function listPublicAnchorIds(
  deps: Pick<AppDeps, 'store'>,
  input: ListPublicAnchorIdsInput,
): Promise<PageOf<string>> {
  if (input.hash === undefined && input.signedHash === undefined)
    fail('VALIDATION_FAILED', 'give "hash" or "signedHash"');
  return deps.store.anchors.publicIds({ hash: input.hash, signedHash: input.signedHash }, input.page, input.size);
}
