import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { Anchor, AnchorSearch, PageOf } from './anchor.port.js';

export type SearchAnchorsInput = Omit<AnchorSearch, 'hash'> & { readonly hash?: string; readonly signedHash?: string };

/** The account's anchors, filtered and paged. `hash` and `signedHash` both match the anchor's hash. */
export async function searchAnchors(deps: Pick<AppDeps, 'store'>, input: SearchAnchorsInput): Promise<PageOf<Anchor>> {
  if (input.hash !== undefined && input.signedHash !== undefined && input.hash !== input.signedHash) {
    fail('VALIDATION_FAILED', 'give "hash" or "signedHash", not two different values');
  }
  const { signedHash, ...query } = input;
  return deps.store.anchors.search({ ...query, hash: input.hash ?? signedHash });
}
