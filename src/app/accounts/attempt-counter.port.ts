/**
 * Counters of attempts in fixed time windows, kept in the store so that every process counts together.
 * Keys are opaque strings chosen by the use case.
 */
export interface AttemptCounterRepository {
  /**
   * Adds one to the counter of each key in the window that starts at `windowStart` (a counter left from
   * an earlier window starts again at one), atomically per key; resolves with the new counts, in the
   * order of `keys`.
   */
  reserve(keys: readonly string[], windowStart: number, expiresAt: number): Promise<number[]>;
  /** Takes one back from the counter of each key, if it is still in the window that starts at `windowStart`. */
  release(keys: readonly string[], windowStart: number): Promise<void>;
  /** Deletes counters that expired at or before `now`; resolves with how many. */
  purgeExpired(now: number): Promise<number>;
}
