import { interleaveNonces } from '../../core/merkle/blinding.js';
import { buildMerkleTreeFromPacked, merkleRoot } from '../../core/merkle/tree.js';
import { serializeTree } from '../../core/merkle/serialize.js';
import { SEND_BATCHES } from './anchoring-deps.js';
import type { AppDeps } from '../shared/deps.js';

export interface ClosedBatch {
  readonly batchId: string;
  /** Anchors in the batch (its tree has twice as many leaves: each anchor's and its random sibling). */
  readonly anchorCount: number;
  readonly root: string;
}

/**
 * Closes a batch: the `maxSize` oldest unbatched anchors (seq order) get the new batch and their
 * leaf_index, the Merkle tree (Chainpoint v2 rule) is built over their leaves, each paired with a random
 * sibling so that no receipt shows another anchor's hash (core/merkle/blinding.ts), and stored once, serialised,
 * in the batch row — all in one transaction, under a lock that keeps two processes from closing at once.
 * Then the send job is queued. Null when no anchor waits.
 */
export async function closeBatch(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'>,
  input: { maxSize: number },
): Promise<ClosedBatch | null> {
  if (!(await deps.store.batches.hasUnbatched())) return null;
  const batchId = deps.random.uuid();
  const closed = await deps.store.transaction(async (tx): Promise<ClosedBatch | null> => {
    await tx.batches.lockClosing();
    const now = deps.clock.now();
    await tx.batches.insertEmpty(batchId, now);
    const anchorCount = await tx.batches.assignUnbatched(batchId, input.maxSize);
    if (anchorCount === 0) {
      await tx.batches.delete(batchId);
      return null;
    }
    const leaves = await tx.batches.packedLeaves(batchId);
    const tree = buildMerkleTreeFromPacked(interleaveNonces(leaves, deps.random.bytes(leaves.length)));
    const root = Buffer.from(merkleRoot(tree));
    await tx.batches.setTree(batchId, root, tree.leafCount, serializeTree(tree), now);
    return { batchId, anchorCount, root: root.toString('hex') };
  });
  if (closed) await deps.jobs.send(SEND_BATCHES, {});
  return closed;
}

/** Most batches one run of {@link closeDueBatches} closes; the next run goes on. */
const MAX_BATCHES_PER_RUN = 20;

/**
 * Closes the batches that are due: one as soon as `maxSize` anchors wait (a full batch goes at once,
 * whatever the interval), or when the oldest waiting anchor has waited `intervalMs`. So no anchor
 * waits much longer than the interval, and a backlog leaves in full batches.
 */
export async function closeDueBatches(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'>,
  input: { maxSize: number; intervalMs: number },
): Promise<ClosedBatch[]> {
  const closed: ClosedBatch[] = [];
  while (closed.length < MAX_BATCHES_PER_RUN) {
    const state = await deps.store.batches.unbatchedState(input.maxSize);
    if (state.oldestCreated === null) break;
    if (!state.full && deps.clock.now() - state.oldestCreated < input.intervalMs) break;
    const batch = await closeBatch(deps, { maxSize: input.maxSize });
    if (!batch) break;
    closed.push(batch);
  }
  return closed;
}
