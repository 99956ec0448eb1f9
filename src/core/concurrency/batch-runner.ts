/**
 * Starts batches of queued work, at most `maxInFlight` at a time. `schedule()`, called when work is
 * queued, starts a batch one macrotask turn later, so that the work queued in the same tick joins it; a
 * lone piece of work waits for nothing more. Under load, what arrives while batches run forms the next
 * one, started as soon as a batch ends. Used by the anchor ingest's group commit and by shared
 * transactions.
 */
export interface BatchRunnerOptions<B> {
  readonly maxInFlight: number;
  /** Whether anything waits (a cheap check before a turn is spent on it). */
  readonly waiting: () => boolean;
  /** The next batch taken off the queue, or undefined when nothing can start now. */
  readonly take: () => B | undefined;
  /** Runs a batch; it never rejects (each piece of work answers its own caller). */
  readonly run: (batch: B) => Promise<void>;
}

/** @returns `schedule`, to call whenever work is queued */
export function batchRunner<B>(opts: BatchRunnerOptions<B>): () => void {
  let inFlight = 0;
  let scheduled = false;

  function schedule(): void {
    if (scheduled || inFlight >= opts.maxInFlight || !opts.waiting()) return;
    scheduled = true;
    setImmediate(start);
  }

  function start(): void {
    scheduled = false;
    if (inFlight >= opts.maxInFlight) return;
    const batch = opts.take();
    if (batch === undefined) return;
    inFlight += 1;
    void opts.run(batch).finally(() => {
      inFlight -= 1;
      schedule();
    });
    schedule();
  }

  return schedule;
}
