import { receiptToOts } from '../../core/chainpoint/ots.js';
import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import { getReceipt } from './get-receipt.js';
import type { AnchorStatus } from './anchor.port.js';

export type OtsProofResult =
  | { readonly ready: true; readonly ots: Buffer; readonly targetHash: string }
  | { readonly ready: false; readonly status: AnchorStatus };

/**
 * The anchor's receipt as an OpenTimestamps `.ots` file: the Chainpoint path, then the transaction bytes
 * around the root, then the block Merkle branch, attested by the block height. Only once CONFIRMED:
 * before that the block may still change.
 * @throws DomainError NOT_FOUND when the anchor is unknown
 */
export async function getOtsProof(deps: Pick<AppDeps, 'store'>, input: { id: string }): Promise<OtsProofResult> {
  const anchor = await deps.store.anchors.findById(input.id);
  if (!anchor) fail('NOT_FOUND', `no anchor ${input.id}`);
  if (anchor.status !== 'CONFIRMED' || anchor.batchId === null) return { ready: false, status: anchor.status };
  const [receipt, proof] = await Promise.all([
    getReceipt(deps, input),
    deps.store.batches.confirmationProof(anchor.batchId),
  ]);
  if (!receipt.complete || !proof) return { ready: false, status: anchor.status };
  const ots = receiptToOts({
    targetHash: receipt.receipt.targetHash,
    proof: receipt.receipt.proof,
    merkleRoot: receipt.receipt.merkleRoot,
    rawTxHex: proof.rawTx,
    txMerkleBranch: proof.txMerkleBranch,
    blockHeight: proof.blockHeight,
  });
  return { ready: true, ots, targetHash: receipt.receipt.targetHash };
}
