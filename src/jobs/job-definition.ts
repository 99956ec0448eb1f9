/**
 * A job is a definition (name, queue policy, retry rule) plus a handler. Handlers must be idempotent:
 * the engine may run a job twice after a crash, and a retried job must do no harm.
 */
export interface JobDefinition<T extends object = object> {
  readonly name: string;
  /** `stately`: at most one queued and one active job of this queue at a time (scheduled singletons). */
  readonly policy: 'standard' | 'singleton' | 'stately';
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  /** Exponential backoff between retries. */
  readonly retryBackoff: boolean;
  readonly expireInSeconds: number;
  /** When set, a worker enqueues this job every so many seconds (one per slot across all workers). */
  readonly everySeconds?: number;
  handle(data: T): Promise<void>;
}
