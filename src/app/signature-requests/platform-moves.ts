/** The platform's timed moves: activation at the activation date, expiry at the deadline. */
import type { AppDeps } from '../shared/deps.js';
import { activateIfDue, moveAsPlatform } from './lifecycle.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail'>;

/**
 * Moves PENDING requests whose activation date has come to IN_PROGRESS. Idempotent.
 * @returns how many were activated
 */
export async function activateDueRequests(deps: Deps, input: { limit: number }): Promise<number> {
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

/**
 * Moves IN_PROGRESS requests whose deadline has passed to EXPIRED. Idempotent.
 * @returns how many expired
 */
export async function expireDueRequests(deps: Deps, input: { limit: number }): Promise<number> {
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
