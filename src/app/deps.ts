import type { Clock, Random } from './ports/clock.port.js';
import type { JobQueue } from './ports/jobs.port.js';
import type { Store } from './ports/store.port.js';

/** What every use case may be given. Use cases take the parts they need, in one options object. */
export interface AppDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  readonly jobs: JobQueue;
}
