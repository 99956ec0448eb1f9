/**
 * Hashing a chunk of a batch's tree (core/merkle/batch-tree.ts), which may run on other threads: closing
 * a batch of a million anchors is some two million SHA-256, and a chunk's subtree needs nothing but its
 * own leaves, so chunks can be hashed side by side while the next leaves are read.
 */
import { blindedLevelOne } from '../../core/merkle/blinding.js';
import { levelsAbove } from '../../core/merkle/batch-tree.js';

/** One chunk of a batch's range: its anchors' leaves and where they sit. */
export interface ChunkJob {
  /** The batch's blinding key. */
  readonly key: Buffer;
  /** The anchors' leaves, packed, in offset order. */
  readonly leaves: Buffer;
  /** Each anchor's offset in the batch's range, or null when the chunk has no gap. */
  readonly offsets: readonly number[] | null;
  /** The chunk's first offset and its number of offsets. */
  readonly first: number;
  readonly count: number;
}

/** The chunk's subtree: its level-1 nodes and every level above them up to one node. */
export type ChunkHasher = (job: ChunkJob) => Promise<Buffer>;

/** The subtree of a chunk, on the calling thread. */
export function chunkSubtree(job: ChunkJob): Buffer {
  return levelsAbove(blindedLevelOne(job.key, job.leaves, job.offsets, job.first, job.count));
}

/** A {@link ChunkHasher} on the calling thread (small batches, tests). */
export const inlineChunkHasher: ChunkHasher = async (job) => chunkSubtree(job);
