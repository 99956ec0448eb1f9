import type { AppDeps } from '../shared/deps.js';

/**
 * Deletes attempt counters whose window is long over; resolves with how many.
 *
 * @throws when the store fails.
 */
export async function purgeExpiredAttempts(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<number> {
  return deps.store.attempts.purgeExpired(deps.clock.now());
}
