/**
 * Hashing the chunks of a closing batch's tree (core/merkle/batch-tree.ts), which may run on other threads:
 * a batch of a million anchors is some two million SHA-256, and a chunk's subtree needs nothing but its own
 * leaves, so chunks can be hashed side by side while the next leaves are read.
 */
import { chunkSubtree, type ChunkJob } from '../../core/merkle/batch-tree.js';

/** A chunk's subtree ({@link chunkSubtree}), wherever it is computed. */
export type ChunkHasher = (job: ChunkJob) => Promise<Buffer>;

/** A {@link ChunkHasher} on the calling thread (small batches, tests). */
export const inlineChunkHasher: ChunkHasher = async (job) => chunkSubtree(job);
