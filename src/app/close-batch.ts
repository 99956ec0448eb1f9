import { buildMerkleTreeFromPacked, merkleRoot } from '../core/merkle/tree.js';
import { serializeTree } from '../core/merkle/serialize.js';
import { SEND_BATCHES } from './anchoring-deps.js';
import type { AppDeps } from './deps.js';

export interface ClosedBatch {
  readonly batchId: string;
  readonly leafCount: number;
  readonly root: string;
}

/**
 * Closes a batch: the `maxSize` oldest unbatched anchors (seq order) get the new batch and their
 * leaf_index, the Merkle tree (Chainpoint v2 rule) is built over their leaves and stored once, serialised,
 * in the batch row — all in one transaction, under a lock that keeps two processes from closing at once.
 * Then the send job is queued. Null when no anchor waits.
 */
export async function closeBatch(deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'>, input: { maxSize: number }): Promise<ClosedBatch | null> {
  if (!(await deps.store.batches.hasUnbatched())) return null;
  const batchId = deps.random.uuid();
  const closed = await deps.store.transaction(async (tx): Promise<ClosedBatch | null> => {
    await tx.batches.lockClosing();
    const now = deps.clock.now();
    await tx.batches.insertEmpty(batchId, now);
    const leafCount = await tx.batches.assignUnbatched(batchId, input.maxSize);
    if (leafCount === 0) {
      await tx.batches.delete(batchId);
      return null;
    }
    const tree = buildMerkleTreeFromPacked(await tx.batches.packedLeaves(batchId));
    const root = Buffer.from(merkleRoot(tree));
    await tx.batches.setTree(batchId, root, leafCount, serializeTree(tree), now);
    return { batchId, leafCount, root: root.toString('hex') };
  });
  if (closed) await deps.jobs.send(SEND_BATCHES, {});
  return closed;
}
