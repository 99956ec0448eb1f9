/**
 * A proof bundle checked with no proofseal server: the document's hash, each receipt's signature and Merkle
 * path, the audit trail's link to its receipt, then for each receipt the SPV data beside it (the raw
 * transaction carries the root in its OP_RETURN, the branch leads to the header's Merkle root, the header hashes
 * to the block hash and carries its proof of work), and finally, from the header source the user chose, whether
 * that block is at that height of the best chain. Each check is a function of its own, so callers (the CLI, the
 * signed copy's check) compose the ones they need.
 */
import { hasProofOfWork } from '../../core/bitcoin/block-header.js';
import { checkSpvProof, type SpvProof } from '../../core/bitcoin/spv.js';
import type { ChainpointReceipt } from '../../core/chainpoint/receipt.js';
import { validateReceipt } from '../../core/chainpoint/validate.js';
import { checkAuditTrailLink, provenHash } from '../../core/signature-requests/trail-link.js';
import { verifyReceiptOffline } from '../anchoring/verify-receipt.js';
import type { HeaderSource } from '../anchoring/header-source.port.js';

/** One line of a verdict: ok true passes, false fails the verdict, null could not be checked (informative). */
export interface BundleCheck {
  readonly name: string;
  readonly ok: boolean | null;
  readonly text: string;
}

export interface BundleItem {
  /** `signature 1`, …, `audit trail`. */
  readonly what: string;
  readonly checks: BundleCheck[];
}

/** A block the verdict relies on: its hash and height, as the header source confirmed (or not) them. */
export interface ReliedBlock {
  readonly hash: string;
  readonly height: number;
  /** Block time from the header, seconds since the epoch. */
  readonly time: number;
  /** Tip − height + 1 by the header source; null when the source does not hold this block there. */
  readonly confirmations: number | null;
}

export interface BundleVerification {
  readonly verified: boolean;
  readonly items: BundleItem[];
  readonly blocks: ReliedBlock[];
  /** The header source's description. */
  readonly headerSource: string;
}

interface BundleShape {
  readonly signatureReceipts?: unknown;
  readonly auditTrailReceipt?: unknown;
  readonly auditTrailData?: unknown;
  readonly bitcoinSpv?: unknown;
}

/** True when `json` has the shape of a proof bundle (rather than of one receipt). */
export function isProofBundle(json: unknown): boolean {
  return json !== null && typeof json === 'object' && Array.isArray((json as BundleShape).signatureReceipts);
}

/**
 * Verifies a proof bundle against the document's SHA-256, asking `headers` only which block is at a height.
 * Never throws on a hostile bundle (each fault is a failed check); a header source that fails is a failed
 * check too.
 */
export async function verifyProofBundle(
  deps: { readonly headers: HeaderSource },
  input: { readonly bundle: unknown; readonly documentHash: string },
): Promise<BundleVerification> {
  const bundle = (isProofBundle(input.bundle) ? input.bundle : {}) as BundleShape;
  const spv = Array.isArray(bundle.bitcoinSpv) ? (bundle.bitcoinSpv as SpvProof[]) : [];
  const items: BundleItem[] = [];
  const relied = new Map<string, SpvProof>();
  const receipts = Array.isArray(bundle.signatureReceipts) ? (bundle.signatureReceipts as unknown[]) : [];
  if (receipts.length === 0)
    items.push({
      what: 'bundle',
      checks: [{ name: 'bundle', ok: false, text: 'the bundle holds no signature receipt' }],
    });
  receipts.forEach((raw, i) => {
    const checks = receiptChecks(raw, spv, relied, (r) => [documentCheck(r, input.documentHash)]);
    items.push({ what: `signature ${i + 1}`, checks });
  });
  if (bundle.auditTrailReceipt !== undefined && bundle.auditTrailReceipt !== null) {
    const checks = receiptChecks(bundle.auditTrailReceipt, spv, relied, (r) => [
      trailLinkCheck(r, bundle.auditTrailData),
    ]);
    items.push({ what: 'audit trail', checks });
  }
  const { blocks, checks } = await chainChecks(deps.headers, [...relied.values()]);
  items.push({ what: 'best chain', checks });
  const verified = items.every((item) => item.checks.every((c) => c.ok !== false));
  return { verified, items, blocks, headerSource: deps.headers.description };
}

/** Validation, the receipt's own check (`own`), signature, Merkle path, SPV and proof of work, in that order. */
function receiptChecks(
  raw: unknown,
  spv: readonly SpvProof[],
  relied: Map<string, SpvProof>,
  own: (receipt: ChainpointReceipt) => BundleCheck[],
): BundleCheck[] {
  let receipt: ChainpointReceipt;
  try {
    receipt = validateReceipt(raw);
  } catch (err) {
    return [{ name: 'receipt', ok: false, text: `not a valid Chainpoint v2 receipt: ${(err as Error).message}` }];
  }
  const checks = [...own(receipt), ...proofChecks(receipt)];
  if (checks.some((c) => c.ok === false)) return checks;
  const entry = spvEntryOf(receipt, spv);
  checks.push(spvCheck(receipt, entry));
  if (entry !== undefined && checks.every((c) => c.ok !== false)) {
    checks.push(workCheck(entry));
    if (checks.every((c) => c.ok !== false)) relied.set(entry.blockHash, entry);
  }
  return checks;
}

/** A signature receipt proves the document: its signed hash (or target hash) is the document's SHA-256. */
export function documentCheck(receipt: ChainpointReceipt, documentHash: string): BundleCheck {
  const proven = provenHash(receipt);
  return proven === documentHash
    ? { name: 'document', ok: true, text: `the document's SHA-256 ${documentHash} is the hash the receipt proves` }
    : {
        name: 'document',
        ok: false,
        text: `the document's SHA-256 ${documentHash} is not the hash the receipt proves (${proven ?? 'none'})`,
      };
}

/** The audit-trail receipt proves exactly the bundle's `auditTrailData`. */
export function trailLinkCheck(receipt: ChainpointReceipt, trail: unknown): BundleCheck {
  const link = checkAuditTrailLink(receipt, trail);
  return link.linked
    ? { name: 'audit trail', ok: true, text: `auditTrailData hashes to ${link.hash}, the hash the receipt proves` }
    : { name: 'audit trail', ok: false, text: link.text };
}

/** The signature (when signed) and the Merkle path from targetHash to merkleRoot. */
export function proofChecks(receipt: ChainpointReceipt): BundleCheck[] {
  const offline = verifyReceiptOffline(receipt);
  const checks: BundleCheck[] = [];
  const sig = receipt.signature;
  if (sig !== undefined) {
    const status = offline.signature;
    const who = sig.signedIdentity ? `${sig.pubKey} (${sig.signedIdentity})` : sig.pubKey;
    checks.push(
      status === 'VERIFIED'
        ? { name: 'signature', ok: true, text: `the signature by ${who} holds` }
        : status === 'SIGNATURE_MISMATCH_RECEIPT'
          ? { name: 'signature', ok: false, text: 'targetHash is not the SHA-256 of the signature' }
          : { name: 'signature', ok: false, text: `the signature does not hold for ${sig.pubKey}` },
    );
  }
  checks.push(
    offline.proof
      ? { name: 'merkle', ok: true, text: `the Merkle proof leads to root ${receipt.merkleRoot}` }
      : { name: 'merkle', ok: false, text: 'the Merkle proof does not lead from targetHash to merkleRoot' },
  );
  return checks;
}

function spvEntryOf(receipt: ChainpointReceipt, spv: readonly SpvProof[]): SpvProof | undefined {
  const txid = receipt.anchors[0]?.sourceId;
  return spv.find((e) => e !== null && typeof e === 'object' && e.txid === txid);
}

/** The SPV entry of the receipt's transaction: raw tx → txid, OP_RETURN root, branch → header, header → hash. */
export function spvCheck(receipt: ChainpointReceipt, entry: SpvProof | undefined): BundleCheck {
  const txid = receipt.anchors[0]?.sourceId ?? '?';
  if (entry === undefined)
    return {
      name: 'transaction',
      ok: false,
      text: `the bundle carries no SPV data (bitcoinSpv) for transaction ${txid}: a bundle made before it was complete, or by a server without a node`,
    };
  const verdict = checkSpvProof(entry, receipt.merkleRoot);
  if (!verdict.valid) return { name: 'transaction', ok: false, text: `${verdict.failed}: ${verdict.reason}` };
  return {
    name: 'transaction',
    ok: true,
    text: `transaction ${txid} carries the root in OP_RETURN and its Merkle branch leads to the header of block ${entry.blockHash}`,
  };
}

/** The header's hash meets the target its own bits encode. */
export function workCheck(entry: SpvProof): BundleCheck {
  return hasProofOfWork(Buffer.from(entry.blockHeader, 'hex'))
    ? { name: 'work', ok: true, text: `the header of block ${entry.blockHash} carries its proof of work` }
    : { name: 'work', ok: false, text: `the header of block ${entry.blockHash} does not meet its own target (bits)` };
}

/** For each block relied on: the header source has that hash at that height; the confirmations it implies. */
export async function chainChecks(
  headers: HeaderSource,
  entries: readonly SpvProof[],
): Promise<{ blocks: ReliedBlock[]; checks: BundleCheck[] }> {
  const blocks: ReliedBlock[] = [];
  const checks: BundleCheck[] = [];
  if (entries.length === 0) return { blocks, checks: [{ name: 'chain', ok: false, text: 'no block to look up' }] };
  let tip: number;
  try {
    tip = await headers.tipHeight();
  } catch (err) {
    return {
      blocks,
      checks: [{ name: 'chain', ok: false, text: `cannot ask ${headers.description}: ${(err as Error).message}` }],
    };
  }
  for (const e of entries) {
    const time = Buffer.from(e.blockHeader, 'hex').readUInt32LE(68);
    let found: string | null;
    try {
      found = await headers.blockHashAt(e.blockHeight);
    } catch (err) {
      checks.push({ name: 'chain', ok: false, text: `cannot ask ${headers.description}: ${(err as Error).message}` });
      blocks.push({ hash: e.blockHash, height: e.blockHeight, time, confirmations: null });
      continue;
    }
    const held = found === e.blockHash;
    blocks.push({
      hash: e.blockHash,
      height: e.blockHeight,
      time,
      confirmations: held ? tip - e.blockHeight + 1 : null,
    });
    checks.push(
      held
        ? {
            name: 'chain',
            ok: true,
            text: `block ${e.blockHash} is at height ${e.blockHeight} of the best chain of ${headers.description} (${tip - e.blockHeight + 1} confirmations)`,
          }
        : {
            name: 'chain',
            ok: false,
            text:
              found === null
                ? `${headers.description} has no block at height ${e.blockHeight} (its tip is ${tip}): block ${e.blockHash} is not confirmed by it`
                : `${headers.description} has block ${found} at height ${e.blockHeight}, not ${e.blockHash}`,
          },
    );
  }
  return { blocks, checks };
}
