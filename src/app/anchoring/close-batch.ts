import { blindedRangeLeaves } from '../../core/merkle/blinding.js';
import { buildSerializedTree, type SerializedTree } from '../../core/merkle/serialize.js';
import { NODE_SIZE } from '../../core/merkle/tree.js';
import type { BatchRepository, SeqRange } from './bitcoin.port.js';
import type { Random } from '../shared/clock.port.js';
import { SEND_BATCHES, type AnchoringDeps } from './anchoring-deps.js';
import type { AppDeps } from '../shared/deps.js';

type CloseDeps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'jobs'> & Pick<AnchoringDeps, 'insideClose'>;

export interface ClosedBatch {
  readonly batchId: string;
  /** Anchors in the batch (its tree has twice as many leaves: each anchor's and its random sibling). */
  readonly anchorCount: number;
  readonly root: string;
}

/**
 * Closes a batch: it takes the `maxSize` oldest unbatched anchors (seq order) as a range of sequence
 * numbers — one batch row, no anchor row rewritten — and stores the Merkle tree (Chainpoint v2 rule) built
 * over their leaves, each paired with a random sibling so that no receipt shows another anchor's hash
 * (core/merkle/blinding.ts), serialised, in that row; the send job is queued in the same transaction, under
 * a lock that keeps two processes from closing at once. The range ends at a seq below which every insert has
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
    const tree = await rangeTree(tx.batches, range, deps.random);
    const now = deps.clock.now();
    await tx.batches.insertClosed({
      id: batchId,
      ...range,
      root: tree.root,
      leafCount: tree.leafCount,
      tree: tree.bytes,
      now,
    });
    // Keyed like the scheduled sends, so the stately queue holds one active send whichever queued it.
    await tx.jobs.send(SEND_BATCHES, {}, { singletonKey: SEND_BATCHES });
    return { batchId, anchorCount: range.count, root: tree.root.toString('hex') };
  });
}

/** The blinded tree of a seq range: anchor at offset o on leaf 2o, random bytes everywhere else. */
async function rangeTree(batches: BatchRepository, range: SeqRange, random: Random): Promise<SerializedTree> {
  const { leaves, seqs } = await batches.rangeLeaves(range.firstSeq, range.lastSeq);
  const span = range.lastSeq - range.firstSeq + 1;
  const offsets = seqs.length === span ? null : seqs.map((seq) => seq - range.firstSeq);
  return buildSerializedTree(blindedRangeLeaves(leaves, offsets, span, random.bytes(2 * span * NODE_SIZE)));
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
