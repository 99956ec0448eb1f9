import { buildReceipt, type ChainpointReceipt, type ReceiptSignature } from '../../core/chainpoint/receipt.js';
import { fail } from '../../core/errors.js';
import { bytesToHex } from '../../core/hash/hex.js';
import { proofFromNodes, proofNodeLocations } from '../../core/merkle/proof.js';
import type { AppDeps } from '../shared/deps.js';
import type { Anchor } from './anchor.port.js';

export type ReceiptResult =
  | { readonly complete: true; readonly receipt: ChainpointReceipt; readonly settled: boolean }
  | { readonly complete: false; readonly signature?: ReceiptSignature };

/**
 * The receipt of an anchor, by id (so private anchors too, to whoever knows the id). While the
 * anchor is WAIT, only its signature part. One statement reads the anchor, its batch and just the log2(n)
 * nodes of the path. `settled`: the batch is confirmed below the reorg watch, the receipt can no longer change.
 * @throws DomainError NOT_FOUND when unknown
 */
export async function getReceipt(deps: Pick<AppDeps, 'store'>, input: { id: string }): Promise<ReceiptResult> {
  const data = await deps.store.anchors.findProofData(input.id);
  if (!data) fail('NOT_FOUND', `no anchor ${input.id}`);
  const { anchor, batch } = data;
  const signature = receiptSignature(anchor);
  if (!batch || anchor.txId === null || anchor.batchId === null)
    return signature ? { complete: false, signature } : { complete: false };
  const receipt = buildReceipt({
    targetHash: bytesToHex(anchor.leaf),
    merkleRoot: bytesToHex(batch.root),
    proof: proofFromNodes(proofNodeLocations(batch.leafCount, batch.leafIndex), batch.nodes),
    txId: anchor.txId,
    signature,
  });
  return { complete: true, receipt, settled: batch.settled };
}

function receiptSignature(a: Anchor): ReceiptSignature | undefined {
  if (a.kind !== 'signature' || a.signature === null || a.pubKey === null) return undefined;
  const s: ReceiptSignature = { signedHash: a.hash, pubKey: a.pubKey, signature: a.signature };
  if (a.identityUrl !== null) s.identityURL = a.identityUrl;
  if (a.signedIdentity !== null) s.signedIdentity = a.signedIdentity;
  if (a.signedIssuerDomain !== null) s.signedIssuerDomain = a.signedIssuerDomain;
  return s;
}
