import { parseRawTransaction } from '../../core/bitcoin/raw-tx.js';
import type { SpvProof } from '../../core/bitcoin/spv.js';
import type { AppDeps } from '../shared/deps.js';

/**
 * The SPV data of a CONFIRMED anchor's transaction: the raw transaction (without witness: every byte then
 * counts in its txid) and its block Merkle branch as stored at the first confirmation, and the block's 80-byte header read from the node. Null before
 * CONFIRMED, with no node, or when the node no longer knows the block. `headers` (by block hash) lets the
 * anchors of one bundle, mostly in one block, ask the node once.
 */
export async function getSpvProof(
  deps: Pick<AppDeps, 'store' | 'chain'>,
  input: { id: string },
  headers = new Map<string, Promise<string | null>>(),
): Promise<SpvProof | null> {
  const anchor = await deps.store.anchors.findById(input.id);
  if (!deps.chain || anchor?.status !== 'CONFIRMED' || anchor.batchId === null) return null;
  const proof = await deps.store.batches.confirmationProof(anchor.batchId);
  if (!proof) return null;
  const read = headers.get(proof.blockHash) ?? deps.chain.getBlockHeaderHex(proof.blockHash);
  headers.set(proof.blockHash, read);
  const header = await read;
  if (header === null) return null;
  return {
    txid: proof.txId,
    rawTx: parseRawTransaction(proof.rawTx).nonWitness.toString('hex'),
    blockHash: proof.blockHash,
    blockHeight: proof.blockHeight,
    blockHeader: header,
    txIndex: proof.txMerkleBranch.index,
    merkleBranch: proof.txMerkleBranch.siblings,
  };
}
