import type { Static, TSchema } from '@sinclair/typebox';

/**
 * How many jobs of one queue may wait and run at once:
 * - `any-number`: every job sent is kept and run (deliveries, one job per message);
 * - `one-queued-one-running`: at most one job waits and one runs at a time across all workers, so a periodic
 *   tick sent by every worker runs once per slot and never piles up behind a slow run.
 */
export type QueuePolicy = 'any-number' | 'one-queued-one-running';

/**
 * The port between the job handlers (`src/jobs/`) and the job engine that runs them (an adapter): a job is a
 * definition (name, payload schema, queue policy, retry rule) plus a handler. Handlers must be idempotent:
 * the engine may run a job twice after a crash, and a retried job must do no harm.
 */
export interface JobDefinition<S extends TSchema = TSchema> {
  readonly name: string;
  /**
   * What a job's data must be. The engine checks it before `handle`; a job whose data does not match
   * fails at once, without retries (it would never match), and is logged with the queue name.
   */
  readonly schema: S;
  readonly policy: QueuePolicy;
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  /** Exponential backoff between retries. */
  readonly retryBackoff: boolean;
  /** A job running longer than this is taken for lost (its worker died) and retried. */
  readonly expireInSeconds: number;
  /** How many jobs of this queue one worker process runs at once (default 1). */
  readonly concurrency?: number;
  /** When set, a worker enqueues this job every so many seconds (one per slot across all workers). */
  readonly everySeconds?: number;
  handle(data: Static<S>): Promise<void>;
}
