/**
 * What the verification page proves about a document and its receipts, with the server's own core code
 * (bundled for the browser by scripts/build-web.mjs): receipt shape, document hash, signature, Merkle
 * proof, and the bundle's SPV data (transaction, Merkle branch, block header and its proof of work). Only
 * whether the block is in Bitcoin's best chain needs a header source: `POST /v1/receipt/verify` of this
 * origin, or an explorer the operator allowed (verify-report.ts).
 */
import { hasProofOfWork, parseBlockHeader } from '../../core/bitcoin/block-header.js';
import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import { checkSpvProof, type SpvProof } from '../../core/bitcoin/spv.js';
import {
  checkReceiptPath,
  signatureMatchesTarget,
  validateReceipt,
  type ChainpointReceipt,
} from '../../core/chainpoint/index.js';
import { sha256Hex } from '../../core/hash/sha256.js';
import { messageToSign } from '../../core/identity/identity-message.js';
import { canonicalJson } from '../../core/signature-requests/audit-trail.js';
import {
  bundleRequestId,
  checkBundleEvents,
  checkBundleInclusion,
  readBundleCheckpoint,
} from '../../core/tlog/bundle-proofs.js';
import type { AnchorEntry } from '../../core/tlog/entry.js';

/** One line of the result: passed, failed, waiting on Bitcoin, or not checked here (said why). */
export type CheckState = 'ok' | 'fail' | 'pending' | 'skip';
/** What a check is about, named in a failure ("the signature of Ann Lee"). */
export type CheckGroup =
  | 'receipt'
  | 'document'
  | 'signature'
  | 'merkle'
  | 'bitcoin'
  | 'chain'
  | 'identity'
  | 'trail'
  | 'copy'
  | 'stamp'
  | 'log';
export interface Check {
  readonly state: CheckState;
  readonly group: CheckGroup;
  readonly key: string;
  readonly params?: Record<string, string | number>;
}

/** The block an SPV entry proves, read from its header (checked). */
export interface SpvBlock {
  readonly hash: string;
  readonly height: number;
  /** Header time, ms. */
  readonly time: number;
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
    return { state: 'fail', group: 'trail', key: 'trailDiffers', params: { hash: messageOf(err) } };
  }
  return hash === signed
    ? { state: 'ok', group: 'trail', key: 'trailMatches' }
    : { state: 'fail', group: 'trail', key: 'trailDiffers', params: { hash } };
}

/**
 * The transparency-log line of a bundle's receipt (`transparencyLog`, docs/transparency-log.md): its anchor's
 * entry is this receipt's and its inclusion proof leads to the root of the bundle's checkpoint. The checkpoint's
 * signature is not checked here (the page holds no log key the reader pinned; `proofseal verify --log-vkey`
 * does), and the text says so. Null when the bundle carries no log proofs.
 * @param position the receipt's place: `signatureReceipts[n]` or the audit trail's
 */
export function logCheck(json: unknown, receipt: ChainpointReceipt, position: number | 'trail'): Check | null {
  const log = (json as { transparencyLog?: unknown } | null)?.transparencyLog as
    { checkpoint?: unknown; signatures?: unknown; auditTrail?: unknown } | undefined | null;
  if (log === undefined || log === null || typeof log !== 'object') return null;
  const read = readBundleCheckpoint(log.checkpoint, null);
  if (!read.ok) return { state: 'fail', group: 'log', key: 'logBad', params: { reason: read.reason } };
  const proof =
    position === 'trail' ? log.auditTrail : Array.isArray(log.signatures) ? log.signatures[position] : undefined;
  if (proof === undefined || proof === null) return { state: 'skip', group: 'log', key: 'logNotYet' };
  const c = read.checkpoint;
  const found = checkBundleInclusion(proof, receipt, c);
  return found.ok
    ? { state: 'ok', group: 'log', key: 'logOk', params: { index: found.index, origin: c.origin, size: c.size } }
    : { state: 'fail', group: 'log', key: 'logBad', params: { reason: found.reason } };
}

/**
 * The lines of the bundle's signing events (`transparencyLog.events`, docs/transparency-log.md), each with the
 * card it belongs on: a SIGNED event on the card of the signature whose anchor it names (its place in
 * `signatureReceipts`), the others — and any event that does not hold — on the audit trail's. Empty when the
 * bundle carries no events (or no checkpoint that reads: its receipts' log lines say so).
 * @param formatTime renders an event's time in the page's language
 */
export function eventChecks(
  json: unknown,
  formatTime: (ms: number) => string,
): { position: number | 'trail'; check: Check }[] {
  const bundle = json as { signatureReceipts?: unknown; transparencyLog?: unknown } | null;
  const log = bundle?.transparencyLog as { checkpoint?: unknown; signatures?: unknown; events?: unknown } | undefined;
  if (log === undefined || log === null || typeof log !== 'object' || log.events === undefined) return [];
  const read = readBundleCheckpoint(log.checkpoint, null);
  if (!read.ok) return [];
  const c = read.checkpoint;
  const receipts = Array.isArray(bundle!.signatureReceipts) ? (bundle!.signatureReceipts as unknown[]) : [];
  const proofs = Array.isArray(log.signatures) ? (log.signatures as unknown[]) : [];
  const signatures = receipts.map((raw, i): AnchorEntry | null => {
    let receipt: ChainpointReceipt;
    try {
      receipt = validateReceipt(raw);
    } catch {
      return null;
    }
    const found = proofs[i] == null ? null : checkBundleInclusion(proofs[i], receipt, c);
    return found?.ok ? found.entry : null;
  });
  return checkBundleEvents(log.events, c, { signatures, requestId: bundleRequestId(json) }).map((r) => {
    if (!r.ok)
      return {
        position: 'trail',
        check: { state: 'fail', group: 'log', key: 'eventBad', params: { reason: r.reason } },
      };
    const e = r.entry;
    const params = {
      event: e.event,
      request: e.request,
      time: formatTime(e.time),
      index: r.index,
      origin: c.origin,
      size: c.size,
    };
    if (r.signature !== null)
      return {
        position: r.signature,
        check: { state: 'ok', group: 'log', key: 'eventSignedOk', params: { ...params, signer: e.signer ?? '' } },
      };
    const check: Check =
      e.signer === null
        ? { state: 'ok', group: 'log', key: 'eventOk', params }
        : { state: 'ok', group: 'log', key: 'eventSignerOk', params: { ...params, signer: e.signer } };
    return { position: 'trail', check };
  });
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
    return {
      receipt: null,
      checks: [{ state: 'fail', group: 'receipt', key: 'badReceipt', params: { reason: messageOf(err) } }],
    };
  }
  const checks: Check[] = [];
  if (fileHash !== null) checks.push(hashCheck(receipt, fileHash));
  if (receipt.signature) checks.push(...signatureChecks(receipt));
  const path = checkReceiptPath(receipt);
  checks.push({ state: path ? 'ok' : 'fail', group: 'merkle', key: path ? 'proofOk' : 'proofBad' });
  return { receipt, checks };
}

function hashCheck(receipt: ChainpointReceipt, fileHash: string): Check {
  const expected = receipt.signature ? receipt.signature.signedHash : receipt.targetHash;
  return expected === fileHash
    ? { state: 'ok', group: 'document', key: 'hashMatches' }
    : { state: 'fail', group: 'document', key: 'hashDiffers', params: { expected } };
}

function signatureChecks(receipt: ChainpointReceipt): Check[] {
  const sig = receipt.signature!;
  const checks: Check[] = [];
  if (!signatureMatchesTarget(receipt)) checks.push({ state: 'fail', group: 'signature', key: 'sigLeafBad' });
  try {
    const result = verifySignedMessage(messageToSign(sig), sig.signature, sig.pubKey);
    checks.push(
      result.ok
        ? { state: 'ok', group: 'signature', key: 'sigOk', params: { pubKey: sig.pubKey } }
        : { state: 'fail', group: 'signature', key: 'sigBad', params: { reason: result.reason } },
    );
  } catch (err) {
    checks.push({ state: 'fail', group: 'signature', key: 'sigBad', params: { reason: messageOf(err) } });
  }
  return checks;
}

/**
 * The SPV line of a receipt: the bundle's `bitcoinSpv` entry for its transaction checked with core's
 * `checkSpvProof` (the transaction carries the receipt's root, its branch leads to the header's root, the
 * header hashes to the block) and the header's proof of work against its own target. Null when the file
 * holds no SPV data at all (a lone receipt, a bundle from a server without a node).
 */
export function spvCheck(spv: unknown, receipt: ChainpointReceipt): { check: Check; block?: SpvBlock } | null {
  if (!Array.isArray(spv)) return null;
  const txId = receipt.anchors[0]?.sourceId ?? '';
  const entry = (spv as unknown[]).find(
    (e): e is SpvProof => typeof e === 'object' && e !== null && (e as { txid?: unknown }).txid === txId,
  );
  if (entry === undefined) return { check: { state: 'skip', group: 'bitcoin', key: 'spvMissing', params: { txId } } };
  const verdict = checkSpvProof(entry, receipt.merkleRoot);
  if (!verdict.valid)
    return {
      check: {
        state: 'fail',
        group: 'bitcoin',
        key: 'spvBad',
        params: { failed: verdict.failed, reason: verdict.reason },
      },
    };
  const headerBytes = Buffer.from(entry.blockHeader, 'hex');
  const header = parseBlockHeader(headerBytes);
  if (!hasProofOfWork(headerBytes))
    return { check: { state: 'fail', group: 'bitcoin', key: 'spvNoWork', params: { hash: header.hash } } };
  const block: SpvBlock = { hash: header.hash, height: entry.blockHeight, time: header.time * 1000 };
  return {
    check: { state: 'ok', group: 'bitcoin', key: 'spvOk', params: { txId, height: block.height, hash: block.hash } },
    block,
  };
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
      group: 'chain',
      key: 'chainOk',
      params: { time: formatTime(answer.timestamp), confirmations: answer.confirmations ?? 0, txId },
    });
  else if (answer.code === 'TX_NOT_CONFIRMED') checks.push({ state: 'pending', group: 'chain', key: 'chainPending' });
  else
    checks.push({ state: 'fail', group: 'chain', key: 'chainBad', params: { code: answer.code, text: answer.text } });
  const identity = identityCheck(receipt, answer.identityVerificationStatus);
  if (identity !== null) checks.push(identity);
  return checks;
}

/**
 * The identity line: the identity server named in the signature vouches for the key (VERIFIED), could not
 * be asked (HTTP_ERROR: not a failure of the proof, said as "not checked"), the key was revoked or expired
 * since (DEPRECATED_KEY), or the server denies it (a failure).
 */
function identityCheck(receipt: ChainpointReceipt, status: string | null): Check | null {
  const url = receipt.signature?.identityURL;
  if (url === undefined) return null;
  let server = url;
  try {
    server = new URL(url).host;
  } catch {
    // shown as given
  }
  if (status === 'VERIFIED') return { state: 'ok', group: 'identity', key: 'identityOk', params: { server } };
  if (status === 'DEPRECATED_KEY')
    return { state: 'skip', group: 'identity', key: 'identityDeprecated', params: { server } };
  if (status === null || status === 'HTTP_ERROR')
    return { state: 'skip', group: 'identity', key: 'identityUnreachable', params: { server } };
  return { state: 'fail', group: 'identity', key: 'identityBad', params: { server, status } };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
