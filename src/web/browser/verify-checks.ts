/**
 * What the verification page proves about a document and its receipts, with the server's own core code
 * (bundled for the browser by scripts/build-web.mjs): receipt shape, document hash, signature, Merkle
 * proof. The Bitcoin part is asked of `POST /v1/receipt/verify` (the browser has no chain).
 */
import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import {
  checkReceiptPath,
  signatureMatchesTarget,
  validateReceipt,
  type ChainpointReceipt,
} from '../../core/chainpoint/index.js';
import { sha256Hex } from '../../core/hash/sha256.js';
import { messageToSign } from '../../core/identity/identity-message.js';
import { canonicalJson } from '../../core/signature-requests/audit-trail.js';

/** One line of the result: passed, failed, or waiting on Bitcoin. */
export type CheckState = 'ok' | 'fail' | 'pending';
export interface Check {
  readonly state: CheckState;
  readonly key: string;
  readonly params?: Record<string, string | number>;
}

/** The server's answer to POST /v1/receipt/verify (the fields the page shows). */
export interface ChainAnswer {
  code: string;
  text: string;
  timestamp: number | null;
  confirmations: number | null;
  identityVerificationStatus: string | null;
}

/** The receipts a JSON file holds: one receipt, or a proof bundle's signature and audit-trail receipts. */
export interface ReceiptSet {
  readonly receipts: unknown[];
  /** Indexes of receipts that are about the document (the audit-trail receipt is not). */
  readonly aboutDocument: boolean[];
  readonly incompleteBundle: boolean;
}

/** Sort a parsed JSON file into receipts: a bundle has `signatureReceipts`, anything else is one receipt. */
export function receiptsOf(json: unknown): ReceiptSet {
  const bundle = json as { signatureReceipts?: unknown; auditTrailReceipt?: unknown; complete?: unknown };
  if (bundle === null || typeof bundle !== 'object' || !Array.isArray(bundle.signatureReceipts))
    return { receipts: [json], aboutDocument: [true], incompleteBundle: false };
  const audit =
    bundle.auditTrailReceipt === undefined || bundle.auditTrailReceipt === null ? [] : [bundle.auditTrailReceipt];
  return {
    receipts: [...bundle.signatureReceipts, ...audit],
    aboutDocument: [...bundle.signatureReceipts.map(() => true), ...audit.map(() => false)],
    incompleteBundle: bundle.complete === false,
  };
}

/**
 * The link of a bundle's audit trail to its receipt: the SHA-256 of the trail's canonical JSON (RFC 8785) is
 * the hash the audit-trail receipt signs. Null when the JSON is no bundle, or holds no trail or no such receipt.
 */
export function trailCheck(json: unknown): Check | null {
  const bundle = json as { auditTrailData?: unknown; auditTrailReceipt?: { signature?: { signedHash?: unknown } } };
  if (bundle === null || typeof bundle !== 'object' || bundle.auditTrailData == null) return null;
  const signed = bundle.auditTrailReceipt?.signature?.signedHash;
  if (typeof signed !== 'string') return null;
  let hash: string;
  try {
    const data = bundle.auditTrailData;
    const text = typeof data === 'string' ? data : canonicalJson(data as Parameters<typeof canonicalJson>[0]);
    hash = sha256Hex(new TextEncoder().encode(text));
  } catch (err) {
    return { state: 'fail', key: 'trailDiffers', params: { hash: messageOf(err) } };
  }
  return hash === signed
    ? { state: 'ok', key: 'trailMatches' }
    : { state: 'fail', key: 'trailDiffers', params: { hash } };
}

/** The local checks of one receipt; `receipt` is null when its shape is invalid (then nothing else is checked). */
export function localChecks(
  input: unknown,
  fileHash: string | null,
): { receipt: ChainpointReceipt | null; checks: Check[] } {
  let receipt: ChainpointReceipt;
  try {
    receipt = validateReceipt(input);
  } catch (err) {
    return { receipt: null, checks: [{ state: 'fail', key: 'badReceipt', params: { reason: messageOf(err) } }] };
  }
  const checks: Check[] = [];
  if (fileHash !== null) checks.push(hashCheck(receipt, fileHash));
  if (receipt.signature) checks.push(...signatureChecks(receipt));
  checks.push({
    state: checkReceiptPath(receipt) ? 'ok' : 'fail',
    key: checkReceiptPath(receipt) ? 'proofOk' : 'proofBad',
  });
  return { receipt, checks };
}

function hashCheck(receipt: ChainpointReceipt, fileHash: string): Check {
  const expected = receipt.signature ? receipt.signature.signedHash : receipt.targetHash;
  return expected === fileHash
    ? { state: 'ok', key: 'hashMatches' }
    : { state: 'fail', key: 'hashDiffers', params: { expected } };
}

function signatureChecks(receipt: ChainpointReceipt): Check[] {
  const sig = receipt.signature!;
  const checks: Check[] = [];
  if (!signatureMatchesTarget(receipt)) checks.push({ state: 'fail', key: 'sigLeafBad' });
  try {
    const result = verifySignedMessage(messageToSign(sig), sig.signature, sig.pubKey);
    checks.push(
      result.ok
        ? { state: 'ok', key: 'sigOk', params: { pubKey: sig.pubKey } }
        : { state: 'fail', key: 'sigBad', params: { reason: result.reason } },
    );
  } catch (err) {
    checks.push({ state: 'fail', key: 'sigBad', params: { reason: messageOf(err) } });
  }
  return checks;
}

/** The Bitcoin line (and identity line) from the server's answer. */
export function chainChecks(
  receipt: ChainpointReceipt,
  answer: ChainAnswer,
  formatTime: (ms: number) => string,
): Check[] {
  const txId = receipt.anchors[0]?.sourceId ?? '';
  const checks: Check[] = [];
  if (answer.code === 'VERIFIED' && answer.timestamp !== null)
    checks.push({
      state: 'ok',
      key: 'chainOk',
      params: { time: formatTime(answer.timestamp), confirmations: answer.confirmations ?? 0, txId },
    });
  else if (answer.code === 'TX_NOT_CONFIRMED') checks.push({ state: 'pending', key: 'chainPending' });
  else checks.push({ state: 'fail', key: 'chainBad', params: { code: answer.code, text: answer.text } });
  const identity = receipt.signature?.signedIdentity;
  if (identity !== undefined)
    checks.push({
      state: answer.identityVerificationStatus === 'VERIFIED' ? 'ok' : 'pending',
      key: 'identity',
      params: { identity, status: answer.identityVerificationStatus ?? '—' },
    });
  return checks;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
