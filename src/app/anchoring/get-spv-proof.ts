import { parseRawTransaction } from '../../core/bitcoin/raw-tx.js';
import type { SpvProof } from '../../core/bitcoin/spv.js';
import type { AppDeps } from '../shared/deps.js';

/**
 * The SPV data of a CONFIRMED anchor's transaction: the raw transaction (without witness: every byte then
 * counts in its txid), its block Merkle branch and the block's 80-byte header, all as stored at the first
 * confirmation, so any process of any role split answers the same without a node. A batch confirmed before headers
 * were stored has its header read from the node when this process has one (a worker stores it meanwhile: see
 * `fillBlockHeaders`). Null before CONFIRMED, or when no header is at hand. `headers` (by block hash) lets the
 * anchors of one bundle, mostly in one block, ask the node once.
 */
export async function getSpvProof(
  deps: Pick<AppDeps, 'store' | 'chain'>,
  input: { id: string },
  headers = new Map<string, Promise<string | null>>(),
): Promise<SpvProof | null> {
  const anchor = await deps.store.anchors.findById(input.id);
  if (anchor?.status !== 'CONFIRMED' || anchor.batchId === null) return null;
  const proof = await deps.store.batches.confirmationProof(anchor.batchId);
  if (!proof) return null;
  const header = proof.blockHeader ?? (await nodeHeader(deps, proof.blockHash, headers));
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

function nodeHeader(
  deps: Pick<AppDeps, 'chain'>,
  blockHash: string,
  headers: Map<string, Promise<string | null>>,
): Promise<string | null> {
  const chain = deps.chain;
  if (!chain) return Promise.resolve(null);
  const read = headers.get(blockHash) ?? chain.getBlockHeaderHex(blockHash);
  headers.set(blockHash, read);
  return read;
}
