/**
 * What an SPV client needs to check, with nothing but a block header source, that a Chainpoint receipt's
 * Merkle root was written in a Bitcoin block: the raw anchoring transaction, its Merkle branch in the
 * block and the 80-byte header. {@link checkSpvProof} checks one such proof against the receipt's root.
 */
import { isLowerHex } from '../hash/hex.js';
import { doubleSha256 } from '../hash/sha256.js';
import { parseOpReturn } from './op-return.js';
import { parseRawTransaction } from './raw-tx.js';

/** The SPV data of one anchoring transaction (hashes in RPC display order unless said otherwise). */
export interface SpvProof {
  readonly txid: string;
  /** The transaction serialized without witness (BIP 144), hex: every byte counts in the txid. */
  readonly rawTx: string;
  readonly blockHash: string;
  readonly blockHeight: number;
  /** The serialized 80-byte block header, 160 hex chars. */
  readonly blockHeader: string;
  /** Position of the transaction in the block (0: the coinbase); its bits say left or right, leaf up. */
  readonly txIndex: number;
  /** Siblings from the transaction up to the root, hex, in internal byte order (as hashed, not reversed). */
  readonly merkleBranch: string[];
}

/** Which check failed. */
export type SpvFailure = 'MALFORMED' | 'TXID' | 'OP_RETURN' | 'MERKLE_BRANCH' | 'BLOCK_HASH';

export type SpvVerdict =
  { readonly valid: true } | { readonly valid: false; readonly failed: SpvFailure; readonly reason: string };

const HEADER_BYTES = 80;
/** A block holds far fewer than 2^32 transactions. */
const MAX_DEPTH = 32;

const displayHex = (internal: Buffer): string => Buffer.from(internal).reverse().toString('hex');
const bad = (failed: SpvFailure, reason: string): SpvVerdict => ({ valid: false, failed, reason });

function malformed(p: SpvProof): string | null {
  if (!isLowerHex(p.txid, 32)) return '"txid" expected 64 lowercase hex chars';
  if (!isLowerHex(p.blockHash, 32)) return '"blockHash" expected 64 lowercase hex chars';
  if (!isLowerHex(p.blockHeader, HEADER_BYTES)) return '"blockHeader" expected 160 lowercase hex chars';
  if (!Number.isSafeInteger(p.blockHeight) || p.blockHeight < 0) return '"blockHeight" expected an integer ≥ 0';
  if (!Array.isArray(p.merkleBranch) || p.merkleBranch.length > MAX_DEPTH) return '"merkleBranch" expected ≤ 32 hashes';
  if (!p.merkleBranch.every((h) => isLowerHex(h, 32))) return '"merkleBranch" expected 64-hex-char hashes';
  const index = p.txIndex;
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** p.merkleBranch.length)
    return `"txIndex" expected an integer in [0, 2^${p.merkleBranch.length})`;
  return null;
}

/** The Merkle root (internal order) the branch leads to from the transaction hash. */
function branchRoot(txHash: Buffer, branch: readonly string[], index: number): Buffer {
  let node = txHash;
  branch.forEach((sibling, depth) => {
    const s = Buffer.from(sibling, 'hex');
    node = doubleSha256(Math.floor(index / 2 ** depth) % 2 === 0 ? Buffer.concat([node, s]) : Buffer.concat([s, node]));
  });
  return node;
}

/**
 * Checks one SPV proof against the Merkle root of the receipt that names its transaction: SHA-256d of the
 * transaction (without witness) is `txid`; one of its outputs is `OP_RETURN <merkleRoot>`; the branch leads
 * from the txid to the header's Merkle root; SHA-256d of the header is `blockHash`. Whether that block is in
 * Bitcoin's best chain at `blockHeight` is for the caller to ask a header source it trusts.
 * A 64-byte transaction is refused: it could pass for an inner node of the tree.
 */
export function checkSpvProof(proof: SpvProof, merkleRoot: string): SpvVerdict {
  const wrong = malformed(proof);
  if (wrong !== null) return bad('MALFORMED', wrong);
  let tx;
  try {
    tx = parseRawTransaction(proof.rawTx);
  } catch (err) {
    // Hostile bytes: whatever the parser trips on, the proof is malformed.
    return bad('MALFORMED', `"rawTx": ${err instanceof Error ? err.message : String(err)}`);
  }
  if (tx.hasWitness) return bad('MALFORMED', '"rawTx" expected without witness data (the txid does not cover it)');
  if (tx.nonWitness.length === 64) return bad('MALFORMED', '"rawTx" is 64 bytes, which an inner node could mimic');
  if (tx.txid !== proof.txid) return bad('TXID', `"rawTx" hashes to ${tx.txid}, not ${proof.txid}`);
  if (!tx.outputs.some((o) => parseOpReturn(o.script)?.toString('hex') === merkleRoot))
    return bad('OP_RETURN', `no output of ${proof.txid} is OP_RETURN ${merkleRoot}`);
  const header = Buffer.from(proof.blockHeader, 'hex');
  const root = branchRoot(doubleSha256(tx.nonWitness), proof.merkleBranch, proof.txIndex);
  if (!root.equals(header.subarray(36, 68)))
    return bad(
      'MERKLE_BRANCH',
      `the branch leads to ${displayHex(root)}, the header holds ${displayHex(header.subarray(36, 68))}`,
    );
  const hash = displayHex(doubleSha256(header));
  if (hash !== proof.blockHash) return bad('BLOCK_HASH', `the header hashes to ${hash}, not ${proof.blockHash}`);
  return { valid: true };
}
