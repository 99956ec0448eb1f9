import { moveAsPlatform } from './lifecycle.js';
import type { PlatformMoveDeps } from './platform-move-deps.js';

/**
 * Moves IN_PROGRESS requests whose deadline has passed to EXPIRED. Idempotent.
 * @returns how many expired
 */
export async function expireDueRequests(deps: PlatformMoveDeps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  let moved = 0;
  for (const id of await deps.store.signatureRequests.dueForExpiry(now, input.limit)) {
    const done = await deps.store.transaction(async (tx) => {
      const request = await tx.signatureRequests.lockById(id);
      if (request?.state !== 'IN_PROGRESS' || request.deadline === null || request.deadline > now) return false;
      await moveAsPlatform(tx, request, 'EXPIRED', now, deps);
      return true;
    });
    if (done) moved += 1;
  }
  return moved;
}
