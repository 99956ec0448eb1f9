import { RateLimitedError } from '../../core/errors.js';
import { sha256Utf8Hex } from '../../core/hash/sha256.js';
import type { AppDeps } from '../shared/deps.js';

/** One counter an attempt is charged to: at most `max` attempts per window under `key`. */
export interface AttemptLimit {
  /** What is counted, e.g. `api-login|203.0.113.9|alice@example.com`; stored only as a hash. */
  readonly key: string;
  readonly max: number;
}

export interface LimitAttemptsOptions<T> {
  /** Every counter this attempt is charged to; the attempt runs only if all are under their limit. */
  readonly limits: readonly AttemptLimit[];
  readonly windowMs: number;
  /** The (expensive) check. A value is a success, which does not count; null is a failure, which does. */
  readonly attempt: () => Promise<T | null>;
}

/** How long a counter is kept after its window ends (then the maintenance job deletes it). */
const KEEP_AFTER_WINDOW_MS = 60_000;

/**
 * Runs an attempt (a password or token check) only if the counters it is charged to allow it. The
 * attempt is reserved in the store before it runs, so concurrent attempts cannot all pass a limit
 * that is counted only afterwards: a success gives its reservation back, a failure keeps it, and an
 * error (e.g. a store outage) gives it back too, since nothing was tried. The counters live in the
 * store, so every process that shares it shares the limits.
 *
 * @throws RateLimitedError (RATE_LIMITED) when a counter is at its limit; the attempt did not run.
 * @throws whatever `attempt` throws.
 */
export async function limitAttempts<T>(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  opts: LimitAttemptsOptions<T>,
): Promise<T | null> {
  const now = deps.clock.now();
  const windowStart = now - (now % opts.windowMs);
  const keys = opts.limits.map((l) => sha256Utf8Hex(l.key));
  const counts = await deps.store.attempts.reserve(
    keys,
    windowStart,
    windowStart + opts.windowMs + KEEP_AFTER_WINDOW_MS,
  );
  const release = () => deps.store.attempts.release(keys, windowStart);
  if (counts.some((count, i) => count > opts.limits[i]!.max)) {
    await release();
    const retryAfter = Math.max(1, Math.ceil((windowStart + opts.windowMs - now) / 1000));
    throw new RateLimitedError(`too many failed attempts; retry in ${retryAfter} s`, retryAfter);
  }
  let result: T | null;
  try {
    result = await opts.attempt();
  } catch (err) {
    await release().catch(() => undefined);
    throw err;
  }
  if (result !== null) await release();
  return result;
}
