import {
  buildReceipt,
  receiptText,
  type ChainpointReceipt,
  type ReceiptSignature,
  type ReceiptText,
} from '../../core/chainpoint/receipt.js';
import { fail } from '../../core/errors.js';
import { bytesToHex } from '../../core/hash/hex.js';
import { proofFromNodes, proofNodeLocations, type ProofStep } from '../../core/merkle/proof.js';
import type { AppDeps } from '../shared/deps.js';
import type { AnchorProofData, ReceiptAnchor } from './anchor.port.js';

export type ReceiptResult =
  | { readonly complete: true; readonly receipt: ChainpointReceipt; readonly settled: boolean }
  | { readonly complete: false; readonly signature?: ReceiptSignature };

/** The part of a receipt that never changes once its anchor's batch has a transaction. */
export interface ReceiptProof {
  readonly batchId: string;
  readonly targetHash: string;
  readonly merkleRoot: string;
  readonly proof: readonly ProofStep[];
}

/** A receipt's parts: what never changes (the signature, the proof) and what may (the transaction). */
export interface ReceiptParts {
  readonly signature?: ReceiptSignature;
  /** Null until the anchor's batch has a transaction. */
  readonly proof: ReceiptProof | null;
  /** The batch's transaction, null while WAIT. */
  readonly txId: string | null;
  /** The batch is confirmed below the reorg watch: the receipt can no longer change. */
  readonly settled: boolean;
}

/**
 * The parts of an anchor's receipt, by id (so private anchors too, to whoever knows the id). One statement
 * reads the anchor, its batch and just the log2(n) nodes of the path.
 * @throws DomainError NOT_FOUND when unknown
 */
export async function readReceiptParts(deps: Pick<AppDeps, 'store'>, input: { id: string }): Promise<ReceiptParts> {
  return receiptPartsOf(input.id, await deps.store.anchors.findProofData(input.id));
}

/**
 * The parts of an anchor's receipt from what the store read of it.
 * @throws DomainError NOT_FOUND when unknown (null or undefined)
 */
export function receiptPartsOf(id: string, data: AnchorProofData | null | undefined): ReceiptParts {
  const { base, inBatch } = partsOf(id, data);
  if (!inBatch) return { ...base, proof: null };
  const { batchId, leaf, batch } = inBatch;
  const proof = {
    batchId,
    targetHash: bytesToHex(leaf),
    merkleRoot: bytesToHex(batch.root),
    proof: proofFromNodes(proofNodeLocations(batch.leafCount, batch.leafIndex), batch.nodes),
  };
  return { ...base, proof };
}

/**
 * What both forms of an anchor's receipt parts share (its signature, transaction and settlement) and, once
 * its batch has a transaction, what its proof is made of.
 * @throws DomainError NOT_FOUND when unknown (null or undefined)
 */
function partsOf(id: string, data: AnchorProofData | null | undefined) {
  if (!data) fail('NOT_FOUND', `no anchor ${id}`);
  const { anchor, batch } = data;
  const signature = receiptSignature(anchor);
  const base = { ...(signature ? { signature } : {}), txId: anchor.txId, settled: batch?.settled ?? false };
  const inBatch =
    batch && anchor.txId !== null && anchor.batchId !== null
      ? { batchId: anchor.batchId, leaf: anchor.leaf, batch }
      : null;
  return { base, inBatch };
}

/** The part of a receipt's text that never changes once its anchor's batch has a transaction. */
export interface ReceiptTextProof {
  readonly batchId: string;
  /** The receipt's JSON text around its transaction id, its path checked against the root. */
  readonly text: ReceiptText;
}

/** {@link ReceiptParts} with the proof as the receipt's text ({@link receiptText}) instead of hex steps. */
export interface ReceiptTextParts extends Omit<ReceiptParts, 'proof'> {
  /** Null until the anchor's batch has a transaction. */
  readonly proof: ReceiptTextProof | null;
}

/**
 * {@link receiptPartsOf} as text: the receipt's JSON text is made from the stored bytes at once (the path
 * checked against the root on the bytes, each part hexed once), to be completed by its transaction id.
 * @throws DomainError NOT_FOUND when unknown (null or undefined); INVALID_RECEIPT when the path does not
 *   lead to the root or a signature does not match its target
 */
export function receiptTextPartsOf(id: string, data: AnchorProofData | null | undefined): ReceiptTextParts {
  const { base, inBatch } = partsOf(id, data);
  if (!inBatch) return { ...base, proof: null };
  const { batchId, leaf, batch } = inBatch;
  const text = receiptText({
    target: leaf,
    root: batch.root,
    locations: proofNodeLocations(batch.leafCount, batch.leafIndex),
    nodes: batch.nodes,
    signature: base.signature,
  });
  return { ...base, proof: { batchId, text } };
}

/**
 * The receipt made of its parts, for the transaction `txId` (null: WAIT, only the signature part).
 * @throws DomainError INVALID_RECEIPT when the proof does not lead to the root
 */
export function receiptOfParts(
  parts: Pick<ReceiptParts, 'signature' | 'proof'>,
  state: { readonly txId: string | null; readonly settled: boolean },
): ReceiptResult {
  const { signature, proof } = parts;
  if (proof === null || state.txId === null) return signature ? { complete: false, signature } : { complete: false };
  const receipt = buildReceipt({ ...proof, proof: [...proof.proof], txId: state.txId, signature });
  return { complete: true, receipt, settled: state.settled };
}

/**
 * The receipt of an anchor, by id. While the anchor is WAIT, only its signature part. `settled`: the batch
 * is confirmed below the reorg watch, the receipt can no longer change.
 * @throws DomainError NOT_FOUND when unknown
 */
export async function getReceipt(deps: Pick<AppDeps, 'store'>, input: { id: string }): Promise<ReceiptResult> {
  const parts = await readReceiptParts(deps, input);
  return receiptOfParts(parts, parts);
}

function receiptSignature(a: ReceiptAnchor): ReceiptSignature | undefined {
  if (a.kind !== 'signature' || a.signature === null || a.pubKey === null) return undefined;
  const s: ReceiptSignature = { signedHash: a.hash, pubKey: a.pubKey, signature: a.signature };
  if (a.identityUrl !== null) s.identityURL = a.identityUrl;
  if (a.signedIdentity !== null) s.signedIdentity = a.signedIdentity;
  if (a.signedIssuerDomain !== null) s.signedIssuerDomain = a.signedIssuerDomain;
  return s;
}
