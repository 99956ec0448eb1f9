import { fail } from '../../core/errors.js';
import { checkUserUrl } from '../shared/check-user-url.js';
import type { AppDeps } from '../shared/deps.js';
import type { Anchor, AnchorChanges } from './anchor.port.js';

export interface UpdateAnchorInput {
  readonly accountId: string;
  readonly id: string;
  readonly changes: AnchorChanges;
}

/**
 * Changes the editable fields of the account's anchor: name, public, tags, metadata, callbackURL.
 * @throws DomainError NOT_FOUND (unknown or another account's), VALIDATION_FAILED, INVALID_URL, FORBIDDEN_URL
 */
export async function updateAnchor(
  deps: Pick<AppDeps, 'store' | 'clock' | 'httpClient'>,
  input: UpdateAnchorInput,
): Promise<Anchor> {
  const { changes } = input;
  if (changes.tags?.some((t) => t.length === 0 || /\s/.test(t)))
    fail('VALIDATION_FAILED', '"tags" must be non-empty strings without spaces');
  if (typeof changes.callbackUrl === 'string') await checkUserUrl(deps.httpClient, changes.callbackUrl, 'callbackURL');
  const tags = changes.tags === undefined ? undefined : [...new Set(changes.tags)];
  const updated = await deps.store.anchors.update(input.id, input.accountId, { ...changes, tags }, deps.clock.now());
  return updated ?? fail('NOT_FOUND', `no anchor ${input.id}`);
}
