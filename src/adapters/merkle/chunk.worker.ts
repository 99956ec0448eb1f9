/** A worker thread of chunk-workers.ts: hashes the chunks it is sent (core/merkle/batch-tree.ts). */
import { parentPort } from 'node:worker_threads';
import { chunkSubtree, type ChunkJob } from '../../core/merkle/batch-tree.js';
import { ownBuffer } from './chunk-workers.js';

parentPort!.on('message', ({ id, job }: { id: number; job: ChunkJob }) => {
  try {
    const subtree = chunkSubtree(job);
    parentPort!.postMessage({ id, subtree }, ownBuffer(subtree));
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
