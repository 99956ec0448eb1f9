import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The payload of jobs that carry nothing (scheduled ticks, wake-ups). */
export const NO_PAYLOAD = Type.Object({}, { additionalProperties: false });

/**
 * A job is a definition (name, payload schema, queue policy, retry rule) plus a handler. Handlers must
 * be idempotent: the engine may run a job twice after a crash, and a retried job must do no harm.
 */
export interface JobDefinition<S extends TSchema = TSchema> {
  readonly name: string;
  /**
   * What a job's data must be. The engine checks it before `handle`; a job whose data does not match
   * fails at once, without retries (it would never match), and is logged with the queue name.
   */
  readonly schema: S;
  /** `stately`: at most one queued and one active job of this queue at a time (scheduled singletons). */
  readonly policy: 'standard' | 'singleton' | 'stately';
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  /** Exponential backoff between retries. */
  readonly retryBackoff: boolean;
  readonly expireInSeconds: number;
  /** How many jobs of this queue one worker process runs at once (default 1). */
  readonly concurrency?: number;
  /** When set, a worker enqueues this job every so many seconds (one per slot across all workers). */
  readonly everySeconds?: number;
  handle(data: Static<S>): Promise<void>;
}
