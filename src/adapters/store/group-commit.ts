/**
 * Group commit: rows handed in by concurrent requests are gathered and written by one statement in
 * one transaction. A flush starts as soon as one is possible (at most `maxInFlight` at a time), so a
 * lone request waits for nothing; under load the rows that arrive while flushes are running form the
 * next group. Each caller's promise settles when the group holding its row has committed (or failed).
 */
import { batchRunner } from '../../core/concurrency/batch-runner.js';

export interface GroupCommitOptions {
  /** Largest group written by one statement. */
  readonly maxRows: number;
  /** Groups written at the same time (one connection each); 1 for a single-connection store. */
  readonly maxInFlight: number;
}

interface Pending<T> {
  readonly row: T;
  resolve(): void;
  reject(err: unknown): void;
}

export function groupCommit<T>(
  write: (rows: T[]) => Promise<void>,
  opts: GroupCommitOptions,
): (row: T) => Promise<void> {
  const queue: Pending<T>[] = [];
  const schedule = batchRunner({
    maxInFlight: opts.maxInFlight,
    waiting: () => queue.length > 0,
    take: () => (queue.length > 0 ? queue.splice(0, opts.maxRows) : undefined),
    run: writeGroup,
  });

  /** A failed group is written again row by row, so one bad row fails only its own request. */
  async function writeGroup(group: Pending<T>[]): Promise<void> {
    try {
      await write(group.map((p) => p.row));
      group.forEach((p) => p.resolve());
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      for (const p of group) await write([p.row]).then(p.resolve, p.reject);
    }
  }

  return (row) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ row, resolve, reject });
      schedule();
    });
}
