import type { ChainPort } from './ports/chain.port.js';
import type { Clock, Random } from './ports/clock.port.js';
import type { HttpClient } from './ports/http-client.port.js';
import type { JobQueue } from './ports/jobs.port.js';
import type { Store } from './ports/store.port.js';

/** What every use case may be given. Use cases take the parts they need, in one options object. */
export interface AppDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  readonly jobs: JobQueue;
  /** Outbound HTTP to user-given URLs (callbacks, identity checks); absent, those calls fail softly. */
  readonly httpClient?: HttpClient;
  /** The Bitcoin node, for receipt verification; absent, a transaction is reported TX_NOT_FOUND. */
  readonly chain?: ChainPort;
  /** SECRET_KEY (configured, or generated once into DATA_DIR): seals secrets at rest. */
  readonly secretKey: string;
}
