/** Options for one job; see `src/jobs/` for the definitions. */
export interface SendOptions {
  /** Only one queued/active job with this key at a time (per queue). */
  readonly singletonKey?: string;
  /** At most one job per time slot of this many seconds (per queue and key). */
  readonly singletonSeconds?: number;
  readonly startAfterSeconds?: number;
  /** Workers take higher priorities first (default 0), then the oldest. */
  readonly priority?: number;
}

/** One job of {@link JobQueue.sendMany}. */
export interface JobToSend {
  readonly name: string;
  readonly data: object;
  readonly options?: SendOptions;
}

/** The durable job engine seen from the use cases. */
export interface JobQueue {
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Several jobs (of any queues) in one write; their ids are not returned. Without it, jobs go one by one. */
  sendMany?(jobs: readonly JobToSend[]): Promise<void>;
}

/** The jobs of a Store: `send` at once, or `enqueue` with the other jobs of the transaction. */
export interface StoreJobQueue extends JobQueue {
  /**
   * Sends a job whose id the caller does not need. Inside a transaction it is kept and written with the
   * transaction's other enqueued jobs in one statement just before the commit (so it still exists only
   * if the transaction commits); outside one it is sent at once.
   */
  enqueue(name: string, data: object, options?: SendOptions): Promise<void>;
}

/** Sends `jobs` through `queue`: in one write when it can, else one by one. */
export async function sendAll(queue: JobQueue, jobs: readonly JobToSend[]): Promise<void> {
  if (jobs.length === 0) return;
  if (queue.sendMany) return queue.sendMany(jobs);
  for (const j of jobs) await queue.send(j.name, j.data, j.options);
}
