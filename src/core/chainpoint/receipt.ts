/**
 * Chainpoint v2 receipts as docs/bitcoin.md ("Anchors and receipts as the API shows them") fixes them. Field order of a built receipt:
 * `@context`, `type`, `targetHash`, `merkleRoot`, `proof`, `anchors`, then `signature` for a
 * signature anchor (the data-receipt order of the woleet vectors, signature last); inside
 * `signature`: signedHash, pubKey, signature, identityURL?, signedIdentity?, signedIssuerDomain?.
 */
import { DomainError } from '../errors.js';
import { bytesToHex, hexToBytes, isLowerHex } from '../hash/hex.js';
import { sha256Hex } from '../hash/sha256.js';
import { rootFromNodes, rootFromPath, type ProofNodeLocation, type ProofStep } from '../merkle/proof.js';
import { NODE_SIZE } from '../merkle/tree.js';

export const CHAINPOINT_CONTEXT = 'https://w3id.org/chainpoint/v2';
export const CHAINPOINT_TYPE = 'ChainpointSHA256v2';
export const BTC_OP_RETURN = 'BTCOpReturn';

/** The `signature` object of a signature anchor's receipt. */
export interface ReceiptSignature {
  signedHash: string;
  pubKey: string;
  signature: string;
  identityURL?: string;
  signedIdentity?: string;
  signedIssuerDomain?: string;
}

/** A Bitcoin anchor: the txid whose OP_RETURN output carries the Merkle root. */
export interface ReceiptAnchor {
  type: typeof BTC_OP_RETURN;
  sourceId: string;
}

/** A Chainpoint v2 receipt. */
export interface ChainpointReceipt {
  '@context': typeof CHAINPOINT_CONTEXT;
  type: typeof CHAINPOINT_TYPE;
  targetHash: string;
  merkleRoot: string;
  proof: ProofStep[];
  anchors: ReceiptAnchor[];
  signature?: ReceiptSignature;
}

/** What {@link buildReceipt} needs. */
export interface BuildReceiptInput {
  targetHash: string;
  merkleRoot: string;
  proof: readonly ProofStep[];
  txId: string;
  signature?: ReceiptSignature;
}

/** Leaf of a signature anchor: SHA-256 of the ASCII bytes of its base64 signature, hex. */
export function signatureLeaf(signatureBase64: string): string {
  return sha256Hex(Buffer.from(signatureBase64, 'latin1'));
}

/** True when `proof` leads from `targetHash` to `merkleRoot`. @throws DomainError INVALID_HASH on a malformed hash */
export function pathReachesRoot(targetHash: string, proof: readonly ProofStep[], merkleRoot: string): boolean {
  const root = rootFromPath(hexToBytes(targetHash, 'targetHash', 32), proof);
  return root.equals(hexToBytes(merkleRoot, 'merkleRoot', 32));
}

/**
 * Build a receipt in the fixed field order.
 * @throws DomainError INVALID_HASH for a malformed hash; INVALID_RECEIPT when the proof does not lead
 *   to the root or, for a signature anchor, when targetHash is not the SHA-256 of the signature
 */
export function buildReceipt(input: BuildReceiptInput): ChainpointReceipt {
  hexToBytes(input.txId, 'txId', 32);
  if (!pathReachesRoot(input.targetHash, input.proof, input.merkleRoot)) {
    throw new DomainError('INVALID_RECEIPT', '"proof" does not lead from targetHash to merkleRoot');
  }
  const receipt: ChainpointReceipt = {
    '@context': CHAINPOINT_CONTEXT,
    type: CHAINPOINT_TYPE,
    targetHash: input.targetHash,
    merkleRoot: input.merkleRoot,
    proof: input.proof.map((step) => ('left' in step ? { left: step.left } : { right: step.right })),
    anchors: [{ type: BTC_OP_RETURN, sourceId: input.txId }],
  };
  if (input.signature === undefined) return receipt;
  if (signatureLeaf(input.signature.signature) !== input.targetHash) {
    throw new DomainError('INVALID_RECEIPT', '"targetHash" is not the SHA-256 of the signature');
  }
  return { ...receipt, signature: orderedSignature(input.signature) };
}

/** A copy of `s` with its fields in the fixed order, optional ones only when present. */
export function orderedSignature(s: ReceiptSignature): ReceiptSignature {
  const out: ReceiptSignature = { signedHash: s.signedHash, pubKey: s.pubKey, signature: s.signature };
  if (s.identityURL !== undefined) out.identityURL = s.identityURL;
  if (s.signedIdentity !== undefined) out.signedIdentity = s.signedIdentity;
  if (s.signedIssuerDomain !== undefined) out.signedIssuerDomain = s.signedIssuerDomain;
  return out;
}

/** True when the receipt's proof leads from its targetHash to its merkleRoot. */
export function checkReceiptPath(receipt: ChainpointReceipt): boolean {
  return pathReachesRoot(receipt.targetHash, receipt.proof, receipt.merkleRoot);
}

/** For a signature receipt: true when targetHash = SHA-256 of the signature (else SIGNATURE_MISMATCH_RECEIPT). */
export function signatureMatchesTarget(receipt: ChainpointReceipt): boolean {
  return receipt.signature === undefined || signatureLeaf(receipt.signature.signature) === receipt.targetHash;
}

/**
 * A receipt's JSON text without its transaction id: the text before the id (`head`) and after it (`tail`).
 * `head + txId + tail` is, byte for byte, `JSON.stringify(buildReceipt(…))` of the same parts (the field
 * order of {@link buildReceipt}; see {@link receiptTextWithTx}), so a receipt's text for a transaction is
 * two concatenations, and its parts are hexed, checked and escaped once.
 */
export interface ReceiptText {
  readonly head: string;
  readonly tail: string;
}

/** What {@link receiptText} needs: the parts as bytes, the path's siblings where {@link proofNodeLocations} puts them. */
export interface ReceiptTextInput {
  /** The leaf (targetHash), 32 bytes. */
  readonly target: Uint8Array;
  /** The batch's Merkle root, 32 bytes. */
  readonly root: Uint8Array;
  readonly locations: readonly ProofNodeLocation[];
  /** The siblings, 32 bytes each, in the order of `locations`. */
  readonly nodes: readonly Uint8Array[];
  readonly signature?: ReceiptSignature;
}

/**
 * The text of the receipt of these parts around its transaction id, checked as {@link buildReceipt} checks
 * a receipt (on the bytes: the path leads to the root, a signature anchor's target is the SHA-256 of its
 * signature).
 * @throws DomainError INVALID_RECEIPT when the path does not lead to the root or the signature does not
 *   match; BAD_REQUEST when a node is not 32 bytes
 */
export function receiptText(input: ReceiptTextInput): ReceiptText {
  if (!rootFromNodes(input.target, input.locations, input.nodes).equals(input.root)) {
    throw new DomainError('INVALID_RECEIPT', '"proof" does not lead from targetHash to merkleRoot');
  }
  const targetHash = bytesToHex(input.target);
  if (input.signature !== undefined && signatureLeaf(input.signature.signature) !== targetHash) {
    throw new DomainError('INVALID_RECEIPT', '"targetHash" is not the SHA-256 of the signature');
  }
  // The path's nodes hexed at once, then cut: one native call instead of one a node.
  const hex = input.nodes.length === 0 ? '' : Buffer.concat(input.nodes as Uint8Array[]).toString('hex');
  let proof = '';
  for (let i = 0; i < input.locations.length; i++) {
    const node = hex.slice(i * 2 * NODE_SIZE, (i + 1) * 2 * NODE_SIZE);
    proof += `${i === 0 ? '' : ','}{"${input.locations[i]!.side}":"${node}"}`;
  }
  const head =
    `{"@context":"${CHAINPOINT_CONTEXT}","type":"${CHAINPOINT_TYPE}","targetHash":"${targetHash}",` +
    `"merkleRoot":"${bytesToHex(input.root)}","proof":[${proof}],"anchors":[{"type":"${BTC_OP_RETURN}","sourceId":"`;
  const signature =
    input.signature === undefined ? '' : `,"signature":${JSON.stringify(orderedSignature(input.signature))}`;
  return { head, tail: `"}]${signature}}` };
}

/**
 * The receipt's JSON text for the transaction `txId`.
 * @throws DomainError INVALID_HASH when `txId` is not 64 lowercase hex chars (as {@link buildReceipt})
 */
export function receiptTextWithTx(text: ReceiptText, txId: string): string {
  if (!isLowerHex(txId, 32)) hexToBytes(txId, 'txId', 32);
  return text.head + txId + text.tail;
}
