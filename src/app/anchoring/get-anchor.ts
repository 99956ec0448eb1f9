import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { Anchor } from './anchor.port.js';

/** The account's anchor. @throws DomainError NOT_FOUND when unknown or another account's */
export async function getAnchor(
  deps: Pick<AppDeps, 'store'>,
  input: { accountId: string; id: string },
): Promise<Anchor> {
  return (await deps.store.anchors.findById(input.id, input.accountId)) ?? fail('NOT_FOUND', `no anchor ${input.id}`);
}
