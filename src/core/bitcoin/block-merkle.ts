/**
 * Bitcoin's block Merkle tree over txids: parent = SHA-256d(left ‖ right) in internal byte order, and
 * an odd level duplicates its last node (unlike Chainpoint v2, which moves it up unchanged).
 */
import { DomainError } from '../errors.js';
import { hexToBytes } from '../hash/hex.js';
import { doubleSha256 } from '../hash/sha256.js';

/** A transaction's branch: siblings leaf to root (internal byte order, hex) and its index in the block. */
export interface TxMerkleBranch {
  readonly siblings: string[];
  readonly index: number;
}

function internalOrder(txids: readonly string[]): Buffer[] {
  if (txids.length === 0) throw new DomainError('BAD_REQUEST', '"txids" expected at least 1 txid, got 0');
  return txids.map((id, i) => hexToBytes(id, `txids[${i}]`, 32, 'BAD_REQUEST').reverse());
}

function nextLevel(level: Buffer[]): Buffer[] {
  const parents: Buffer[] = [];
  for (let i = 0; i < level.length; i += 2)
    parents.push(doubleSha256(Buffer.concat([level[i], level[i + 1] ?? level[i]])));
  return parents;
}

/**
 * Branch of `txid` in a block whose txids are given in display order (as RPC `getblock` lists them).
 * @throws DomainError BAD_REQUEST when a txid is malformed or `txid` is not in the list
 */
export function blockMerkleBranch(txids: readonly string[], txid: string): TxMerkleBranch {
  const index = txids.indexOf(txid);
  let level = internalOrder(txids);
  if (index < 0) throw new DomainError('BAD_REQUEST', `"txid" ${txid} is not in the block`);
  const siblings: string[] = [];
  for (let i = index; level.length > 1; i >>= 1, level = nextLevel(level)) {
    siblings.push((level[i ^ 1] ?? level[i]).toString('hex'));
  }
  return { siblings, index };
}

/**
 * Block Merkle root (display order, as in `getblockheader`'s `merkleroot`).
 * @throws DomainError BAD_REQUEST when a txid is malformed or the list is empty
 */
export function blockMerkleRoot(txids: readonly string[]): string {
  let level = internalOrder(txids);
  while (level.length > 1) level = nextLevel(level);
  return Buffer.from(level[0]).reverse().toString('hex');
}
