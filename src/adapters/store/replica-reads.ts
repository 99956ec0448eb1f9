/**
 * The reads that go to a read replica (docs/replicas.md). A replica's answer is taken only when it cannot
 * differ from the primary's: an anchor's receipt whose batch is settled (confirmed below the reorg watch,
 * so nothing about it changes again), the ids of public anchors (a list as of the replica), the anchors of a
 * confirmed batch's range once the replica holds that confirmation. Anything else — an anchor the replica
 * does not have yet (written in the last moments), a batch not settled, a replica that fails — is read
 * again from the primary. So an answer is never "not found" because a replica lags, and a batch's state in
 * an answer is never older than one the primary gave: states not final are the primary's.
 */
import type { ResidentLevels } from '../../core/cache/resident-levels.js';
import type { AnchorProofData, AnchorRepository } from '../../app/anchoring/anchor.port.js';
import type { BatchRepository } from '../../app/anchoring/bitcoin.port.js';
import type { StaticReceiptRepository } from '../../app/anchoring/static-receipts.port.js';
import type { Replica, ReplicaSet } from './replica-set.js';
import type { Sql } from './sql.js';
import { isConnectionFailure } from './store-unreachable.js';

/** The repositories a replica reads with, built once per replica. */
export interface ReplicaRepositories {
  readonly anchors: AnchorRepository;
  readonly batches: BatchRepository;
  readonly staticReceipts: StaticReceiptRepository;
  readonly sql: Sql;
}

export type RepositoriesOn = (replica: Replica) => ReplicaRepositories;

/** The read on a fit replica, kept when `fresh` says so; else (none fit, it failed, not fresh) on the primary. */
async function preferReplica<T>(
  replicas: ReplicaSet,
  on: RepositoriesOn,
  read: (r: ReplicaRepositories) => Promise<T>,
  fresh: (answer: T) => boolean,
  fromPrimary: () => Promise<T>,
): Promise<T> {
  const replica = replicas.pick();
  if (replica === undefined) return fromPrimary();
  let answer: T;
  try {
    answer = await read(on(replica));
  } catch (err) {
    // A replica that went away, or cancelled the read for a conflict with its replay: the primary answers.
    if (isConnectionFailure(err) || (err as { code?: string }).code?.startsWith('57P')) replica.markDown();
    return fromPrimary();
  }
  return fresh(answer) ? answer : fromPrimary();
}

const settled = (data: AnchorProofData | null | undefined) => data?.batch?.settled === true;

export function replicaAnchors(primary: AnchorRepository, replicas: ReplicaSet, on: RepositoriesOn): AnchorRepository {
  async function findProofDataMany(ids: readonly string[], levels: ResidentLevels) {
    const replica = replicas.pick();
    if (replica === undefined) return primary.findProofDataMany(ids, levels);
    let found: Map<string, AnchorProofData>;
    try {
      found = await on(replica).anchors.findProofDataMany(ids, levels);
    } catch (err) {
      if (isConnectionFailure(err)) replica.markDown();
      return primary.findProofDataMany(ids, levels);
    }
    const rest = ids.filter((id) => !settled(found.get(id)));
    if (rest.length === 0) return found;
    for (const id of rest) found.delete(id);
    for (const [id, data] of await primary.findProofDataMany(rest, levels)) found.set(id, data);
    return found;
  }
  return {
    ...primary,
    findProofData: (id) =>
      preferReplica(
        replicas,
        on,
        (r) => r.anchors.findProofData(id),
        settled,
        () => primary.findProofData(id),
      ),
    findProofDataMany,
    publicIds: (filter, page, size) =>
      preferReplica(
        replicas,
        on,
        (r) => r.anchors.publicIds(filter, page, size),
        () => true,
        () => primary.publicIds(filter, page, size),
      ),
  };
}

export function replicaBatches(primary: BatchRepository, replicas: ReplicaSet, on: RepositoriesOn): BatchRepository {
  return {
    ...primary,
    receiptState: (id) =>
      preferReplica(
        replicas,
        on,
        (r) => r.batches.receiptState(id),
        (state) => state?.settled === true,
        () => primary.receiptState(id),
      ),
  };
}

/**
 * The static-receipt publisher's scan of a confirmed batch's anchors, on a replica that holds the batch's
 * confirmation: every anchor of the range was committed before it (the batch was closed over them), so the
 * replica has them all.
 */
export function replicaStaticReceipts(
  primary: StaticReceiptRepository,
  replicas: ReplicaSet,
  on: RepositoriesOn,
): StaticReceiptRepository {
  return {
    ...primary,
    anchorsInRange: (fromSeq, toSeq, limit) =>
      preferReplica(
        replicas,
        on,
        async (r) => {
          const [held] = await r.sql.query<{ confirmed: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM batch WHERE status = 'CONFIRMED' AND first_seq <= $1 AND last_seq >= $2) AS confirmed`,
            [fromSeq, toSeq],
          );
          return held?.confirmed ? r.staticReceipts.anchorsInRange(fromSeq, toSeq, limit) : null;
        },
        (rows) => rows !== null,
        () => primary.anchorsInRange(fromSeq, toSeq, limit),
      ).then((rows) => rows ?? []),
  };
}
