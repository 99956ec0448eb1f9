/**
 * Convert a CONFIRMED receipt into an OpenTimestamps DetachedTimestampFile (`.ots`, binary).
 * The commitment chain: targetHash →(Chainpoint proof: prepend/append sibling, sha256)→ merkleRoot
 * →(prepend tx bytes before the root, append tx bytes after, sha256, sha256)→ txid (internal order)
 * →(block branch: prepend/append sibling, sha256, sha256)→ block Merkle root, attested by a
 * BitcoinBlockHeaderAttestation at the block height. The tx ops run over the non-witness
 * serialization, which is what the txid commits to.
 * Format (python-opentimestamps): magic, varuint version 1, file-hash op, digest, then a linear
 * timestamp: op tag [varbytes arg] … 0x00 attestation-tag(8) varbytes(varuint height).
 */
import { DomainError } from '../errors.js';
import { hexToBytes } from '../hash/hex.js';
import { parseOpReturn } from '../bitcoin/op-return.js';
import { parseRawTransaction } from '../bitcoin/raw-tx.js';
import type { TxMerkleBranch } from '../bitcoin/block-merkle.js';
import type { ProofStep } from '../merkle/proof.js';
import { pathReachesRoot } from './receipt.js';

const HEADER_MAGIC = Buffer.from('004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294', 'hex');
const BITCOIN_ATTESTATION_TAG = Buffer.from('0588960d73d71901', 'hex');
const TAG = { sha256: 0x08, append: 0xf0, prepend: 0xf1 } as const;
/** python-opentimestamps refuses op arguments and intermediate messages above 4096 bytes. */
export const OTS_MAX_MESSAGE = 4096;

type OtsOp = { op: 'sha256' } | { op: 'append' | 'prepend'; data: Buffer };

/** What {@link receiptToOts} needs. */
export interface OtsInput {
  targetHash: string;
  proof: readonly ProofStep[];
  merkleRoot: string;
  /** The anchoring transaction as `getrawtransaction` returns it (witness data allowed). */
  rawTxHex: string;
  txMerkleBranch: TxMerkleBranch;
  blockHeight: number;
}

/** OpenTimestamps varuint (7 bits per byte, low first, high bit = more). */
export function otsVaruint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  do {
    bytes.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v = Math.floor(v / 128);
  } while (v > 0);
  return Buffer.from(bytes);
}

function varbytes(data: Buffer): Buffer {
  return Buffer.concat([otsVaruint(data.length), data]);
}

function proofOps(proof: readonly ProofStep[]): OtsOp[] {
  return proof.flatMap((step): OtsOp[] => [
    'left' in step
      ? { op: 'prepend', data: Buffer.from(step.left, 'hex') }
      : { op: 'append', data: Buffer.from(step.right, 'hex') },
    { op: 'sha256' },
  ]);
}

function txOps(rawTxHex: string, merkleRoot: Buffer): OtsOp[] {
  const tx = parseRawTransaction(rawTxHex);
  if (tx.nonWitness.length > OTS_MAX_MESSAGE) {
    throw new DomainError(
      'BAD_REQUEST',
      `transaction is ${tx.nonWitness.length} bytes, OpenTimestamps allows ${OTS_MAX_MESSAGE}`,
    );
  }
  const output = tx.outputs.find((o) => parseOpReturn(o.script)?.equals(merkleRoot) === true);
  if (output === undefined)
    throw new DomainError('INVALID_RECEIPT', 'the transaction has no OP_RETURN output carrying merkleRoot');
  const rootAt = output.scriptOffset + 2;
  return [
    { op: 'prepend', data: tx.nonWitness.subarray(0, rootAt) },
    { op: 'append', data: tx.nonWitness.subarray(rootAt + 32) },
    { op: 'sha256' },
    { op: 'sha256' },
  ];
}

function blockOps(branch: TxMerkleBranch): OtsOp[] {
  const { siblings, index } = branch;
  if (!Number.isSafeInteger(index) || index < 0 || (siblings.length < 32 && index >= 2 ** siblings.length)) {
    throw new DomainError(
      'BAD_REQUEST',
      `"txMerkleBranch.index" expected 0..${2 ** siblings.length - 1}, got ${index}`,
    );
  }
  return siblings.flatMap((hex, level): OtsOp[] => {
    const data = hexToBytes(hex, `txMerkleBranch.siblings[${level}]`, 32, 'BAD_REQUEST');
    return [
      { op: Math.floor(index / 2 ** level) % 2 === 1 ? 'prepend' : 'append', data },
      { op: 'sha256' },
      { op: 'sha256' },
    ];
  });
}

function serializeOp(o: OtsOp): Buffer {
  return o.op === 'sha256' ? Buffer.from([TAG.sha256]) : Buffer.concat([Buffer.from([TAG[o.op]]), varbytes(o.data)]);
}

function bitcoinAttestation(height: number): Buffer {
  if (!Number.isSafeInteger(height) || height < 0)
    throw new DomainError('BAD_REQUEST', `"blockHeight" expected a non-negative integer, got ${height}`);
  return Buffer.concat([Buffer.from([0x00]), BITCOIN_ATTESTATION_TAG, varbytes(otsVaruint(height))]);
}

/**
 * Build the `.ots` file of a confirmed receipt.
 * @returns the DetachedTimestampFile bytes
 * @throws DomainError INVALID_RECEIPT when the proof does not reach merkleRoot or the tx does not
 *   carry it; BAD_REQUEST for a malformed tx, branch or height, or a tx above 4096 bytes
 */
export function receiptToOts(input: OtsInput): Buffer {
  if (!pathReachesRoot(input.targetHash, input.proof, input.merkleRoot)) {
    throw new DomainError('INVALID_RECEIPT', '"proof" does not lead from targetHash to merkleRoot');
  }
  const ops = [
    ...proofOps(input.proof),
    ...txOps(input.rawTxHex, hexToBytes(input.merkleRoot)),
    ...blockOps(input.txMerkleBranch),
  ];
  return Buffer.concat([
    HEADER_MAGIC,
    otsVaruint(1),
    Buffer.from([TAG.sha256]),
    hexToBytes(input.targetHash),
    ...ops.map(serializeOp),
    bitcoinAttestation(input.blockHeight),
  ]);
}
