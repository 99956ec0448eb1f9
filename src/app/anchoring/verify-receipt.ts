import { parseOpReturn } from '../../core/bitcoin/op-return.js';
import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import {
  checkReceiptPath,
  signatureMatchesTarget,
  type ChainpointReceipt,
  type ReceiptSignature,
} from '../../core/chainpoint/receipt.js';
import { validateReceipt } from '../../core/chainpoint/validate.js';
import { DomainError } from '../../core/errors.js';
import { messageToSign } from '../../core/identity/identity-message.js';
import type { AppDeps } from '../shared/deps.js';
import { verifyIdentity, type IdentityStatus } from '../identity/verify-identity.js';

export type VerificationCode =
  | 'VERIFIED'
  | 'INVALID_PROOF'
  | 'TX_NOT_SENT'
  | 'TX_NOT_FOUND'
  | 'TX_NOT_CONFIRMED'
  | 'TX_MISMATCH_RECEIPT'
  | 'INVALID_SIGNATURE';
export type TimestampStatus = Exclude<VerificationCode, 'INVALID_PROOF' | 'INVALID_SIGNATURE'>;
export type SignatureStatus = 'VERIFIED' | 'INVALID_SIGNATURE' | 'SIGNATURE_MISMATCH_RECEIPT';

export interface ReceiptVerification {
  code: VerificationCode;
  text: string;
  /** Block time of the transaction, ms; null unless confirmed. */
  timestamp: number | null;
  confirmations: number | null;
  timestampVerificationStatus: TimestampStatus | null;
  /** Null for a data receipt (no signature). */
  signatureVerificationStatus: SignatureStatus | null;
  /** Null when the receipt names no identity URL or the signature does not hold. */
  identityVerificationStatus: IdentityStatus | null;
}

const TEXT: Record<VerificationCode, string> = {
  VERIFIED: 'The receipt is valid: the proof leads to a root written in a confirmed Bitcoin transaction.',
  INVALID_PROOF: 'The Merkle proof does not lead from targetHash to merkleRoot.',
  TX_NOT_SENT: 'The receipt names no transaction.',
  TX_NOT_FOUND: 'The transaction of the receipt is not found on the configured chain.',
  TX_NOT_CONFIRMED: 'The transaction is not confirmed yet.',
  TX_MISMATCH_RECEIPT: "The transaction does not carry the receipt's merkleRoot in its OP_RETURN output.",
  INVALID_SIGNATURE: 'The signature of the receipt does not hold.',
};

type Deps = Pick<AppDeps, 'chain' | 'httpClient' | 'random'>;

/**
 * Verifies a receipt, in order: shape, Merkle path, targetHash = SHA-256 of the signature, the
 * signature, the transaction and its OP_RETURN on the configured chain, its confirmations, then the
 * identity behind the signature.
 * @throws DomainError INVALID_RECEIPT for a malformed receipt; CHAIN_UNAVAILABLE when the node fails
 */
export async function verifyReceipt(deps: Deps, input: { receipt: unknown }): Promise<ReceiptVerification> {
  const receipt = validateReceipt(input.receipt);
  const offline = verifyReceiptOffline(receipt);
  if (!offline.proof) return result('INVALID_PROOF', null, null, null, null);
  const sigStatus = offline.signature;
  const ts = await checkTransaction(deps, receipt);
  const identity =
    sigStatus === 'VERIFIED' && receipt.signature?.identityURL !== undefined
      ? await verifyIdentity(deps, { ...receipt.signature, identityURL: receipt.signature.identityURL })
      : null;
  const code: VerificationCode = sigStatus !== null && sigStatus !== 'VERIFIED' ? 'INVALID_SIGNATURE' : ts.status;
  return result(code, ts, ts.status, sigStatus, identity);
}

/**
 * The part of the verification that needs nothing but the receipt: the Merkle path, and for a signature
 * receipt that targetHash is the SHA-256 of the signature and that the signature holds. Pure.
 * @throws nothing: a malformed signature is reported as INVALID_SIGNATURE
 */
export function verifyReceiptOffline(receipt: ChainpointReceipt): {
  proof: boolean;
  signature: SignatureStatus | null;
} {
  return { proof: checkReceiptPath(receipt), signature: receipt.signature ? checkSignature(receipt) : null };
}

function result(
  code: VerificationCode,
  ts: { timestamp: number | null; confirmations: number | null } | null,
  tsStatus: TimestampStatus | null,
  sig: SignatureStatus | null,
  identity: IdentityStatus | null,
): ReceiptVerification {
  return {
    code,
    text: TEXT[code],
    timestamp: ts?.timestamp ?? null,
    confirmations: ts?.confirmations ?? null,
    timestampVerificationStatus: tsStatus,
    signatureVerificationStatus: sig,
    identityVerificationStatus: identity,
  };
}

function checkSignature(receipt: ChainpointReceipt & { signature?: ReceiptSignature }): SignatureStatus {
  const sig = receipt.signature!;
  if (!signatureMatchesTarget(receipt)) return 'SIGNATURE_MISMATCH_RECEIPT';
  try {
    return verifySignedMessage(messageToSign(sig), sig.signature, sig.pubKey).ok ? 'VERIFIED' : 'INVALID_SIGNATURE';
  } catch (err) {
    if (err instanceof DomainError) return 'INVALID_SIGNATURE';
    throw err;
  }
}

interface TxCheck {
  status: TimestampStatus;
  timestamp: number | null;
  confirmations: number | null;
}

async function checkTransaction(deps: Deps, receipt: ChainpointReceipt): Promise<TxCheck> {
  if (receipt.anchors.length === 0) return { status: 'TX_NOT_SENT', timestamp: null, confirmations: null };
  if (!deps.chain) return { status: 'TX_NOT_FOUND', timestamp: null, confirmations: null };
  const root = Buffer.from(receipt.merkleRoot, 'hex');
  let found = false;
  for (const anchor of receipt.anchors) {
    const tx = await getTx(deps.chain, anchor.sourceId);
    if (!tx) continue;
    found = true;
    if (!tx.vout.some((o) => parseOpReturn(Buffer.from(o.scriptHex, 'hex'))?.equals(root))) continue;
    if (tx.confirmations < 1 || tx.blockTime === null)
      return { status: 'TX_NOT_CONFIRMED', timestamp: null, confirmations: 0 };
    return { status: 'VERIFIED', timestamp: tx.blockTime * 1000, confirmations: tx.confirmations };
  }
  return { status: found ? 'TX_MISMATCH_RECEIPT' : 'TX_NOT_FOUND', timestamp: null, confirmations: null };
}

async function getTx(chain: NonNullable<Deps['chain']>, txid: string) {
  try {
    return await chain.getRawTransaction(txid);
  } catch {
    throw new DomainError('CHAIN_UNAVAILABLE', 'the Bitcoin node does not answer; retry later');
  }
}
