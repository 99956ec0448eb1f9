import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { PageOf } from './anchor.port.js';

export interface ListPublicAnchorIdsInput {
  readonly hash?: string;
  readonly signedHash?: string;
  readonly page: number;
  readonly size: number;
}

/** Ids of the PUBLIC anchors of a hash (signed or data); private anchors are never listed. */
export async function listPublicAnchorIds(
  deps: Pick<AppDeps, 'store'>,
  input: ListPublicAnchorIdsInput,
): Promise<PageOf<string>> {
  const hash = input.hash ?? input.signedHash;
  if (hash === undefined) fail('VALIDATION_FAILED', 'give "hash" or "signedHash"');
  if (input.hash !== undefined && input.signedHash !== undefined && input.hash !== input.signedHash) {
    fail('VALIDATION_FAILED', 'give "hash" or "signedHash", not two different values');
  }
  return deps.store.anchors.publicIdsByHash(hash, input.page, input.size);
}
