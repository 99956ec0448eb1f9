/**
 * A Chainpoint v2 receipt verifier written independently of src/ (it imports nothing from it), used to
 * check that what proofseal issues verifies with other people's code: merkle-tools for the path,
 * bitcoinjs-message for the signature, node:crypto for hashes, and the caller's Bitcoin Core RPC.
 */
import { createHash } from 'node:crypto';
import MerkleTools, { type Proof } from 'merkle-tools';
import bitcoinMessage from 'bitcoinjs-message';
import { p2pkh } from '@scure/btc-signer';

/** Bitcoin Core JSON-RPC call; rejects (or resolves null) when the transaction is unknown. */
export type Rpc = (method: string, params: unknown[]) => Promise<unknown>;

export interface ReceiptLike {
  targetHash: string;
  merkleRoot: string;
  proof: ({ left: string } | { right: string })[];
  anchors: { type: string; sourceId: string }[];
  signature?: {
    signedHash: string;
    pubKey: string;
    signature: string;
    signedIdentity?: string;
    signedIssuerDomain?: string;
  };
}

export interface IndependentResult {
  proofValid: boolean;
  signature: 'NONE' | 'VERIFIED' | 'INVALID_SIGNATURE' | 'SIGNATURE_MISMATCH_RECEIPT';
  tx: 'NOT_FOUND' | 'MISMATCH_RECEIPT' | 'FOUND';
  confirmations: number;
  /** Block time in ms, when confirmed. */
  timestamp?: number;
}

const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

function checkPath(receipt: ReceiptLike): boolean {
  const tools = new MerkleTools({ hashType: 'sha256' });
  return tools.validateProof(receipt.proof as unknown as Proof<string>, receipt.targetHash, receipt.merkleRoot);
}

function signedMessage(s: NonNullable<ReceiptLike['signature']>): string {
  if (s.signedIdentity === undefined && s.signedIssuerDomain === undefined) return s.signedHash;
  return sha256Hex(Buffer.from(s.signedHash + (s.signedIdentity ?? '') + (s.signedIssuerDomain ?? ''), 'utf8'));
}

function addressOf(pubKey: string): string {
  return /^(0[23][0-9a-f]{64}|04[0-9a-f]{128})$/i.test(pubKey)
    ? (p2pkh(Buffer.from(pubKey, 'hex')).address as string)
    : pubKey;
}

function checkSignature(receipt: ReceiptLike): IndependentResult['signature'] {
  const s = receipt.signature;
  if (s === undefined) return 'NONE';
  if (sha256Hex(Buffer.from(s.signature, 'ascii')) !== receipt.targetHash) return 'SIGNATURE_MISMATCH_RECEIPT';
  const message = signedMessage(s);
  const address = addressOf(s.pubKey);
  const attempts = [false, true];
  for (const segwitAlways of attempts) {
    try {
      if (bitcoinMessage.verify(message, address, s.signature, undefined, segwitAlways)) return 'VERIFIED';
    } catch {
      // bitcoinjs-message throws on headers/addresses it cannot use: try the next form, then fail.
    }
  }
  return 'INVALID_SIGNATURE';
}

interface VerboseTx {
  vout?: { scriptPubKey?: { hex?: string } }[];
  confirmations?: number;
  blocktime?: number;
}

async function checkTransaction(
  receipt: ReceiptLike,
  rpc: Rpc,
): Promise<Pick<IndependentResult, 'tx' | 'confirmations' | 'timestamp'>> {
  const txid = receipt.anchors.find((a) => a.type === 'BTCOpReturn')?.sourceId;
  let tx: VerboseTx | null = null;
  try {
    tx = txid === undefined ? null : ((await rpc('getrawtransaction', [txid, true])) as VerboseTx | null);
  } catch {
    tx = null;
  }
  if (tx === null) return { tx: 'NOT_FOUND', confirmations: 0 };
  const expected = `6a20${receipt.merkleRoot}`;
  if (!(tx.vout ?? []).some((o) => o.scriptPubKey?.hex === expected))
    return { tx: 'MISMATCH_RECEIPT', confirmations: 0 };
  const confirmations = tx.confirmations ?? 0;
  return confirmations > 0 && tx.blocktime !== undefined
    ? { tx: 'FOUND', confirmations, timestamp: tx.blocktime * 1000 }
    : { tx: 'FOUND', confirmations };
}

/** Verify a receipt: path, signature (if any) and the anchoring transaction through `rpc`. */
export async function verifyReceiptIndependently(receipt: ReceiptLike, rpc: Rpc): Promise<IndependentResult> {
  const proofValid = checkPath(receipt);
  const signature = checkSignature(receipt);
  return { proofValid, signature, ...(await checkTransaction(receipt, rpc)) };
}
