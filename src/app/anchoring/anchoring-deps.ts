/**
 * What the batching use cases (close, send, confirm) are given, and the names of their job queues.
 */
import type { AppDeps } from '../shared/deps.js';
import type { AnchoringSettings, AnchorWallet } from './bitcoin.port.js';
import type { ChainPort } from './chain.port.js';
import type { ChunkHasher } from './chunk-hasher.port.js';

/** Queue of {@link closeBatch} (a scheduled singleton). */
export const CLOSE_BATCH = 'bitcoin.close-batch';
/** Queue of {@link sendBatches}: sent after a batch closes, and on a schedule as a safety net. */
export const SEND_BATCHES = 'bitcoin.send-batches';
/** Queue of {@link confirmBatches} (a scheduled singleton). */
export const CONFIRM_BATCHES = 'bitcoin.confirm-batches';

export interface AnchoringDeps extends Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'> {
  readonly chain: ChainPort;
  readonly wallet: AnchorWallet;
  readonly settings: AnchoringSettings;
  /** Hashes the chunks of a closing batch's tree, on worker threads; absent, on the calling thread. */
  readonly chunkHasher?: ChunkHasher;
  /**
   * Called right after a transaction was handed to the node and before that is recorded. Only the
   * crash test sets it (to end the process there); nothing else may depend on it.
   */
  readonly afterBroadcast?: () => void;
  /**
   * Awaited inside the closing transaction, once the anchors are assigned. Only the close crash test
   * sets it (to be killed mid-close); nothing else may depend on it.
   */
  readonly insideClose?: () => Promise<void>;
  /**
   * Awaited by the send run, under its lock, before it signs a batch's transaction. Only the send crash
   * test sets it (to be killed mid-send); nothing else may depend on it.
   */
  readonly insideSend?: () => Promise<void>;
}
