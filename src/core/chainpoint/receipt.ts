/**
 * Chainpoint v2 receipts as api-decisions.md ("Receipts") fixes them. Field order of a built receipt:
 * `@context`, `type`, `targetHash`, `merkleRoot`, `proof`, `anchors`, then `signature` for a
 * signature anchor (the data-receipt order of the woleet vectors, signature last); inside
 * `signature`: signedHash, pubKey, signature, identityURL?, signedIdentity?, signedIssuerDomain?.
 */
import { DomainError } from '../errors.js';
import { hexToBytes } from '../hash/hex.js';
import { sha256Hex } from '../hash/sha256.js';
import { rootFromPath, type ProofStep } from '../merkle/proof.js';

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
