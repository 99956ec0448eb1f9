import { activateIfDue } from './lifecycle.js';
import type { PlatformMoveDeps } from './platform-move-deps.js';

/**
 * Moves PENDING requests whose activation date has come to IN_PROGRESS. Idempotent.
 * @returns how many were activated
 */
export async function activateDueRequests(deps: PlatformMoveDeps, input: { limit: number }): Promise<number> {
  const now = deps.clock.now();
  let moved = 0;
  for (const id of await deps.store.signatureRequests.dueForActivation(now, input.limit)) {
    const done = await deps.store.transaction(async (tx) => {
      const request = await tx.signatureRequests.lockById(id);
      if (!request) return false;
      return (await activateIfDue(tx, request, now, deps)).state !== request.state;
    });
    if (done) moved += 1;
  }
  return moved;
}
