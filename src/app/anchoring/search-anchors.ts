import type { AppDeps } from '../shared/deps.js';
import type { Anchor, AnchorSearch, PageOf } from './anchor.port.js';

/**
 * The account's anchors, filtered and paged. `hash` matches the anchored hash (a data anchor's hash, the
 * SHA-256 of a signature anchor's signature), `signedHash` a signature anchor's signed hash.
 */
export async function searchAnchors(deps: Pick<AppDeps, 'store'>, input: AnchorSearch): Promise<PageOf<Anchor>> {
  return deps.store.anchors.search(input);
}
