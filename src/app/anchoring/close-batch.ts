import { CHUNK_NODES, chunkJoiner, type TreePart } from '../../core/merkle/batch-tree.js';
import { BLINDING_KEY_SIZE } from '../../core/merkle/blinding.js';
import type { BatchRepository, SeqRange } from './bitcoin.port.js';
import { SEND_BATCHES, type AnchoringDeps } from './anchoring-deps.js';
import { inlineChunkHasher, type ChunkHasher } from './chunk-hasher.port.js';
import type { AppDeps } from '../shared/deps.js';

type CloseDeps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'> &
  Pick<AnchoringDeps, 'insideClose' | 'chunkHasher'>;

export interface ClosedBatch {
  readonly batchId: string;
  /** Anchors in the batch (its tree has twice as many leaves: each anchor's and its secret sibling). */
  readonly anchorCount: number;
  readonly root: string;
}

/**
 * Closes a batch: it takes the `maxSize` oldest unbatched anchors (seq order) as a range of sequence
 * numbers — one batch row, no anchor row rewritten — and stores the Merkle tree (Chainpoint v2 rule) built
 * over their leaves, each paired with a secret sibling derived from a new key of the batch so that no receipt
 * shows another anchor's hash (core/merkle/blinding.ts): the leaves are read a chunk at a time, each chunk's
 * subtree hashed (on other threads when `chunkHasher` says so) while the next is read, and the levels from
 * level 1 up stored in parts, each as soon as it is whole (core/merkle/batch-tree.ts). The send job is queued in the same transaction,
 * under a lock that keeps two processes from closing at once. The range ends at a seq below which every insert has
 * ended ({@link BatchRepository.sealedSeq}), so no anchor can later appear inside it. Null when no anchor waits.
 */
export async function closeBatch(deps: CloseDeps, input: { maxSize: number }): Promise<ClosedBatch | null> {
  if (!(await deps.store.batches.hasUnbatched())) return null;
  const sealedSeq = await deps.store.batches.sealedSeq();
  const batchId = deps.random.uuid();
  return deps.store.transaction(async (tx): Promise<ClosedBatch | null> => {
    await tx.batches.lockClosing();
    const range = await tx.batches.claimRange(input.maxSize, sealedSeq);
    await deps.insideClose?.();
    if (!range) return null;
    const treeKey = deps.random.bytes(BLINDING_KEY_SIZE);
    await tx.batches.insertClosed({
      id: batchId,
      ...range,
      leafCount: 2 * (range.lastSeq - range.firstSeq + 1),
      treeKey,
      now: deps.clock.now(),
    });
    const root = await storeRangeTree(tx.batches, batchId, range, treeKey, deps.chunkHasher ?? inlineChunkHasher);
    await tx.batches.setRoot(batchId, root);
    // Keyed like the scheduled sends, so the one-queued-one-running queue holds one running send whichever queued it.
    await tx.jobs.send(SEND_BATCHES, {}, { singletonKey: SEND_BATCHES });
    return { batchId, anchorCount: range.count, root: root.toString('hex') };
  });
}

/** Chunks read ahead of the hashing: enough to keep the threads busy, few enough to bound the memory. */
const CHUNKS_IN_FLIGHT = 4;

/**
 * Hashes and stores the blinded tree of a seq range (levels 1 up), a chunk at a time: the next chunks' leaves
 * are read while the previous ones are hashed, and each part of the tree is written as soon as it is whole,
 * so the close never holds the whole tree. Returns the root.
 */
async function storeRangeTree(
  batches: BatchRepository,
  batchId: string,
  range: SeqRange,
  key: Buffer,
  hash: ChunkHasher,
): Promise<Buffer> {
  const span = range.lastSeq - range.firstSeq + 1;
  const tree = chunkJoiner(span);
  const write = async (parts: TreePart[]) => {
    for (const { part, nodes } of parts) await batches.insertTreePart(batchId, part, nodes);
  };
  const inFlight: Promise<TreePart[]>[] = [];
  for (let c = 0; c * CHUNK_NODES < span; c++) {
    const first = c * CHUNK_NODES;
    const count = Math.min(CHUNK_NODES, span - first);
    const { leaves, seqs } = await batches.rangeLeaves(range.firstSeq + first, range.firstSeq + first + count - 1);
    const offsets = seqs && seqs.map((seq) => seq - range.firstSeq);
    const done = hash({ key, leaves, offsets, first, count }).then((subtree) => tree.add(c, subtree));
    done.catch(() => undefined); // a failure surfaces when awaited below, not as an unhandled rejection meanwhile
    inFlight.push(done);
    if (inFlight.length >= CHUNKS_IN_FLIGHT) await write(await inFlight.shift()!);
  }
  for (const done of inFlight) await write(await done);
  const { parts, root } = tree.finish();
  await write(parts);
  return root;
}

/** Most batches one run of {@link closeDueBatches} closes; the next run goes on. */
const MAX_BATCHES_PER_RUN = 20;
/** A run starts no new batch after this long, so it ends well inside its job's expiry (see bitcoin.jobs.ts). */
const RUN_BUDGET_MS = 20_000;

/**
 * Closes the batches that are due: one as soon as `maxSize` anchors wait (a full batch goes at once,
 * whatever the interval), or when the oldest waiting anchor has waited `intervalMs`. So no anchor
 * waits much longer than the interval, and a backlog leaves in full batches. A run stops after
 * MAX_BATCHES_PER_RUN batches or RUN_BUDGET_MS, whichever comes first; the next run goes on.
 */
export async function closeDueBatches(
  deps: CloseDeps,
  input: { maxSize: number; intervalMs: number },
): Promise<ClosedBatch[]> {
  const closed: ClosedBatch[] = [];
  const started = deps.clock.now();
  while (closed.length < MAX_BATCHES_PER_RUN && deps.clock.now() - started < RUN_BUDGET_MS) {
    const state = await deps.store.batches.unbatchedState(input.maxSize);
    if (state.oldestCreated === null) break;
    if (!state.full && deps.clock.now() - state.oldestCreated < input.intervalMs) break;
    const batch = await closeBatch(deps, { maxSize: input.maxSize });
    if (!batch) break;
    closed.push(batch);
  }
  return closed;
}
