/**
 * Shared transactions: units of work that each need a transaction of their own, run several to one
 * transaction when they arrive together. The units of one transaction run side by side on its
 * connection, so their statements leave in the same socket writes, and BEGIN, COMMIT, the job insert and
 * the WAL flush are paid once for all of them. Units are keyed (a signature request's id): a key is in
 * one transaction at a time, once, and the units start in key order, so that units whose first
 * statement locks their key's row take those locks in key order.
 *
 * A shared transaction commits only if every unit in it succeeded. When one fails, nothing of it is kept:
 * the failed units run again alone, each in a transaction of its own, and answer as they then do; the
 * others run again together (and when the transaction itself failed, each runs alone). So a unit must be
 * safe to run twice when the first run was rolled back (no effect outside the store).
 *
 * A transaction starts as soon as one may (at most `maxInFlight` at a time): a lone unit waits for
 * nothing, and under load the units that arrive while transactions run form the next one.
 */
import { batchRunner } from '../../core/concurrency/batch-runner.js';
import type { Store } from '../../app/shared/store.port.js';

export interface SharedTransactionOptions {
  /** Most units in one transaction. */
  readonly maxUnits: number;
  /** Shared transactions at the same time (each holds a pooled connection). */
  readonly maxInFlight: number;
}

export type Unit<T> = (tx: Store) => Promise<T>;

export interface SharedTransactions {
  /** Runs `unit` in a transaction it may share with units of other keys; settles when that one has ended. */
  run<T>(key: string, unit: Unit<T>): Promise<T>;
}

interface Queued {
  readonly key: string;
  readonly unit: Unit<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Units failed (`failed[i]`, the first one's error as `cause`): the shared transaction rolled back. */
class UnitFailed extends Error {
  constructor(
    readonly failed: readonly boolean[],
    readonly first: unknown,
  ) {
    super('a unit of a shared transaction failed');
  }
}

export function sharedTransactions(
  store: Pick<Store, 'transaction'>,
  opts: SharedTransactionOptions,
): SharedTransactions {
  const queue: Queued[] = [];
  const keysInFlight = new Set<string>();
  const schedule = batchRunner({
    maxInFlight: opts.maxInFlight,
    waiting: () => queue.length > 0,
    take: () => {
      const group = takeGroup();
      if (group.length === 0) return undefined;
      for (const q of group) keysInFlight.add(q.key);
      return group;
    },
    run: async (group) => {
      try {
        await runGroup(group);
      } finally {
        for (const q of group) keysInFlight.delete(q.key);
      }
    },
  });

  /** The first queued units of distinct keys that no running transaction holds, in key order. */
  function takeGroup(): Queued[] {
    const group: Queued[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < queue.length && group.length < opts.maxUnits;) {
      const q = queue[i]!;
      if (keys.has(q.key) || keysInFlight.has(q.key)) {
        i += 1;
        continue;
      }
      keys.add(q.key);
      group.push(q);
      queue.splice(i, 1);
    }
    return group.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async function runGroup(group: Queued[]): Promise<void> {
    try {
      const values = await inOneTransaction(group);
      group.forEach((q, i) => q.resolve(values[i]));
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(unwrap(err));
      // The units that failed run again alone, for an answer of their own; those that succeeded run
      // again together. When the transaction itself failed (at its commit, say), each runs alone.
      const failed = err instanceof UnitFailed ? group.filter((_, i) => err.failed[i]) : group;
      const succeeded = err instanceof UnitFailed ? group.filter((_, i) => !err.failed[i]) : [];
      await Promise.all([...failed.map((q) => runGroup([q])), ...(succeeded.length > 0 ? [runGroup(succeeded)] : [])]);
    }
  }

  function inOneTransaction(group: readonly Queued[]): Promise<unknown[]> {
    return store.transaction(async (tx) => {
      const settled = await Promise.allSettled(group.map((q) => q.unit(tx)));
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure)
        throw new UnitFailed(
          settled.map((s) => s.status === 'rejected'),
          failure.reason,
        );
      return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
    });
  }

  return {
    run<T>(key: string, unit: Unit<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ key, unit, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
  };
}

const unwrap = (err: unknown): unknown => (err instanceof UnitFailed ? err.first : err);
