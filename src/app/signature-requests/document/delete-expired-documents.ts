import type { AppDeps } from '../../shared/deps.js';
import type { DocumentDeps } from './document.port.js';

/** An object written or referenced this recently is never removed: an upload of the same file may be about to use it. */
export const REMOVE_GRACE_MS = 60 * 60 * 1000;

/**
 * The retention job's work: the files of CANCELED and EXPIRED requests, and of COMPLETED and CLOSED ones
 * unchanged for the retention period, are marked deleted, and their objects removed once no kept file uses
 * them (an object used again is left to its new reference); writes abandoned mid-upload are dropped. The proofs never depend on the file (they hold its hash),
 * so nothing else changes. Idempotent: a second run finds nothing to do.
 * @returns how many files were marked deleted
 */
export async function deleteExpiredDocuments(
  deps: Pick<AppDeps, 'store' | 'clock'> & { readonly documents?: DocumentDeps },
  opts: { limit: number },
): Promise<number> {
  const documents = deps.documents;
  if (!documents) return 0;
  const now = deps.clock.now();
  const due = await deps.store.requestDocuments.dueForDeletion(now - documents.retentionMs, opts.limit);
  for (const requestId of due) await deps.store.requestDocuments.markDeleted(requestId, now);
  for (const name of await deps.store.requestDocuments.objectsToRelease(opts.limit)) {
    const used = await deps.store.requestDocuments.isReferenced(name);
    if (used || (await documents.objects.remove(name, now - REMOVE_GRACE_MS)))
      await deps.store.requestDocuments.markReleased(name);
  }
  await documents.objects.sweepAbandoned(now - REMOVE_GRACE_MS);
  return due.length;
}
