/** Options for one job; see `src/jobs/` for the definitions. */
export interface SendOptions {
  /** Only one queued/active job with this key at a time (per queue). */
  readonly singletonKey?: string;
  /** At most one job per time slot of this many seconds (per queue and key). */
  readonly singletonSeconds?: number;
  readonly startAfterSeconds?: number;
}

/** The durable job engine seen from the use cases. */
export interface JobQueue {
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
}
