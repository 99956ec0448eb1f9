/**
 * A proof bundle checked with no proofseal server: the document's hash, each receipt's signature and Merkle
 * path, the audit trail's link to its receipt, then for each receipt the SPV data beside it (the raw
 * transaction carries the root in its OP_RETURN, the branch leads to the header's Merkle root, the header hashes
 * to the block hash and carries its proof of work), and finally, from the header source the user chose, whether
 * that block is at that height of the best chain. Each check is a function of its own, so callers (the CLI, the
 * signed copy's check) compose the ones they need.
 */
import { createHash } from 'node:crypto';
import { hasProofOfWork } from '../../core/bitcoin/block-header.js';
import { checkSpvProof, type SpvProof } from '../../core/bitcoin/spv.js';
import type { ChainpointReceipt } from '../../core/chainpoint/receipt.js';
import { validateReceipt } from '../../core/chainpoint/validate.js';
import { checkAuditTrailLink, provenHash } from '../../core/signature-requests/trail-link.js';
import {
  bundleRequestId,
  checkBundleEvents,
  checkBundleInclusion,
  describeEvent,
  readBundleCheckpoint,
  type BundleLogProofs,
} from '../../core/tlog/bundle-proofs.js';
import type { AnchorEntry } from '../../core/tlog/entry.js';
import type { Checkpoint, Verifier } from '../../core/tlog/checkpoint.js';
import { verifyReceiptOffline } from '../anchoring/verify-receipt.js';
import type { HeaderSource } from '../anchoring/header-source.port.js';
import type { TimestampTokenReader } from './timestamp-token.port.js';

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

/** An RFC 3161 token of the bundle whose every check held: which root existed when, by which authority. */
export interface StampedRoot {
  readonly merkleRoot: string;
  /** The authority's `genTime`, ISO 8601. */
  readonly genTime: string;
  /** The subject of the certificate that signed the token. */
  readonly tsa: string | null;
}

export interface BundleVerification {
  readonly verified: boolean;
  readonly items: BundleItem[];
  readonly blocks: ReliedBlock[];
  /** The bundle's time-stamp tokens that hold (`rfc3161Timestamps`), in its order. */
  readonly timestamps: StampedRoot[];
  /** The header source's description. */
  readonly headerSource: string;
}

interface BundleShape {
  readonly signatureReceipts?: unknown;
  readonly auditTrailReceipt?: unknown;
  readonly auditTrailData?: unknown;
  readonly bitcoinSpv?: unknown;
  readonly rfc3161Timestamps?: unknown;
  readonly transparencyLog?: unknown;
}

/** True when `json` has the shape of a proof bundle (rather than of one receipt). */
export function isProofBundle(json: unknown): boolean {
  return json !== null && typeof json === 'object' && Array.isArray((json as BundleShape).signatureReceipts);
}

/**
 * Verifies a proof bundle against the document's SHA-256, asking `headers` only which block is at a height,
 * and each of its RFC 3161 tokens with `timestamps` (read here: imprint, signature, time, authority).
 * Never throws on a hostile bundle (each fault is a failed check); a header source that fails is a failed
 * check too.
 */
export async function verifyProofBundle(
  deps: {
    readonly headers: HeaderSource;
    readonly timestamps: TimestampTokenReader;
    /** The transparency log's verifier key the reader trusts; absent, its checkpoint's signature is not checked. */
    readonly logKey?: Verifier | null;
  },
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
  const log = logReading(bundle.transparencyLog, receipts.length, deps.logKey ?? null);
  const proven: (AnchorEntry | null)[] = [];
  receipts.forEach((raw, i) => {
    const checks = receiptChecks(raw, spv, relied, (r) => [documentCheck(r, input.documentHash)]);
    const inLog = logCheck(log, raw, log?.signatures[i]);
    proven.push(inLog.anchor);
    items.push({ what: `signature ${i + 1}`, checks: [...checks, ...inLog.checks] });
  });
  if (bundle.auditTrailReceipt !== undefined && bundle.auditTrailReceipt !== null) {
    const checks = receiptChecks(bundle.auditTrailReceipt, spv, relied, (r) => [
      trailLinkCheck(r, bundle.auditTrailData),
    ]);
    const trailLog = logCheck(log, bundle.auditTrailReceipt, log?.auditTrail).checks;
    items.push({ what: 'audit trail', checks: [...checks, ...trailLog] });
  }
  if (log?.checkpoint && log.events !== undefined)
    items.push({ what: 'signing events', checks: eventChecks(log, proven, bundleRequestId(bundle)) });
  if (log !== null) items.push({ what: 'transparency log', checks: [log.check] });
  else if (deps.logKey)
    items.push({
      what: 'transparency log',
      checks: [
        {
          name: 'log',
          ok: null,
          text: 'the bundle carries no inclusion proof (transparencyLog): made before the log, or before its anchors were logged',
        },
      ],
    });
  const { blocks, checks } = await chainChecks(deps.headers, [...relied.values()]);
  items.push({ what: 'best chain', checks });
  const roots = receiptRoots([...receipts, bundle.auditTrailReceipt]);
  const stamps = await timestampItems(deps.timestamps, bundle.rfc3161Timestamps, roots);
  items.push(...stamps.items);
  const verified = items.every((item) => item.checks.every((c) => c.ok !== false));
  return { verified, items, blocks, timestamps: stamps.held, headerSource: deps.headers.description };
}

interface LogReading {
  /** The checkpoint line: signed by the key given, read only (no key), or refused. */
  readonly check: BundleCheck;
  /** The checkpoint the proofs are checked against; null when it cannot be read (or was refused). */
  readonly checkpoint: Checkpoint | null;
  readonly signed: boolean;
  readonly signatures: readonly unknown[];
  readonly auditTrail: unknown;
  /** The signing events' proofs; undefined when the bundle carries none (made before they were proven). */
  readonly events: unknown;
}

/** The bundle's `transparencyLog` read: null when absent (a bundle made without the log, or before it). */
function logReading(raw: unknown, receipts: number, key: Verifier | null): LogReading | null {
  if (raw === undefined || raw === null) return null;
  const { checkpoint: note, signatures, auditTrail, events } = raw as Partial<Record<keyof BundleLogProofs, unknown>>;
  const refused = (text: string): LogReading => ({
    check: { name: 'checkpoint', ok: false, text },
    checkpoint: null,
    signed: false,
    signatures: [],
    auditTrail: undefined,
    events: undefined,
  });
  if (!Array.isArray(signatures) || signatures.length !== receipts)
    return refused('transparencyLog.signatures does not match signatureReceipts one for one');
  const read = readBundleCheckpoint(note, key);
  if (!read.ok) return refused(`the checkpoint of the transparency log is refused: ${read.reason}`);
  const c = read.checkpoint;
  const what = `the checkpoint of ${c.origin} (size ${c.size}, root ${c.root.toString('base64')})`;
  const check: BundleCheck = read.signed
    ? { name: 'checkpoint', ok: true, text: `${what} is signed by the log key you gave (${key!.name})` }
    : {
        name: 'checkpoint',
        ok: null,
        text: `${what}: its signature was NOT checked (no verifier key of the log given, --log-vkey): the proofs were checked against the root it states, which only the log's key can vouch for`,
      };
  return { check, checkpoint: c, signed: read.signed, signatures, auditTrail, events };
}

/**
 * The log line of a receipt: its anchor's entry is in the bundle's checkpoint (none without a transparencyLog),
 * and that entry when its proof holds (what a SIGNED event must name).
 */
function logCheck(
  log: LogReading | null,
  raw: unknown,
  proof: unknown,
): { checks: BundleCheck[]; anchor: AnchorEntry | null } {
  const none = { checks: [], anchor: null };
  if (log === null || log.checkpoint === null) return none;
  let receipt: ChainpointReceipt;
  try {
    receipt = validateReceipt(raw);
  } catch {
    return none;
  }
  if (proof === undefined || proof === null)
    return {
      checks: [{ name: 'log', ok: null, text: 'its anchor was not in the transparency log when the bundle was made' }],
      anchor: null,
    };
  const c = log.checkpoint;
  const found = checkBundleInclusion(proof, receipt, c);
  if (!found.ok)
    return { checks: [{ name: 'log', ok: false, text: `transparency log: ${found.reason}` }], anchor: null };
  const unsigned = log.signed ? '' : ' (its signature not checked)';
  return {
    checks: [
      {
        name: 'log',
        ok: true,
        text: `its anchor ${found.entry.id} is entry ${found.index} of the transparency log ${c.origin}: the inclusion proof leads to the root of the checkpoint of size ${c.size}${unsigned}`,
      },
    ],
    anchor: found.entry,
  };
}

/** One line per signing event of the bundle: the request's event is in the log, a SIGNED one bound to its signature. */
function eventChecks(log: LogReading, signatures: readonly (AnchorEntry | null)[], requestId: string | null) {
  const c = log.checkpoint!;
  const unsigned = log.signed ? '' : ' (its signature not checked)';
  return checkBundleEvents(log.events, c, { signatures, requestId }).map((r): BundleCheck => {
    if (!r.ok) return { name: 'event', ok: false, text: `transparency log: ${r.reason}` };
    const signed =
      r.signature === null
        ? ''
        : `; it names the anchor of signature ${r.signature + 1} (${r.entry.anchor}) and its key`;
    return {
      name: 'event',
      ok: true,
      text: `${describeEvent(r.entry)} is entry ${r.index} of the transparency log ${c.origin}: the inclusion proof leads to the root of the checkpoint of size ${c.size}${unsigned}${signed}`,
    };
  });
}

function receiptRoots(raws: readonly unknown[]): Set<string> {
  const roots = new Set<string>();
  for (const raw of raws) {
    const root = (raw as { merkleRoot?: unknown } | null)?.merkleRoot;
    if (typeof root === 'string') roots.add(root.toLowerCase());
  }
  return roots;
}

const HEX64 = /^[0-9a-f]{64}$/i;
const SHA256_OID = '2.16.840.1.101.3.4.2.1';

/**
 * One item per token of `rfc3161Timestamps` (absent: none): the root it stamps is a receipt's, its imprint is
 * SHA-256 of the root's 32 bytes, and the authority's signature holds with the certificate the token carries;
 * the authority's time and certificate subject are named. Whether that certificate is one to trust is not
 * decided here (no trust store): `openssl ts -verify -CAfile` does that.
 */
async function timestampItems(
  reader: TimestampTokenReader,
  raw: unknown,
  roots: ReadonlySet<string>,
): Promise<{ items: BundleItem[]; held: StampedRoot[] }> {
  if (raw === undefined || raw === null) return { items: [], held: [] };
  if (!Array.isArray(raw))
    return {
      items: [{ what: 'time stamps', checks: [{ name: 'stamp', ok: false, text: 'rfc3161Timestamps is not a list' }] }],
      held: [],
    };
  const items: BundleItem[] = [];
  const held: StampedRoot[] = [];
  for (const [i, entry] of (raw as unknown[]).entries()) {
    const what = `time stamp ${i + 1}`;
    const { merkleRoot, token } = (entry ?? {}) as { merkleRoot?: unknown; token?: unknown };
    if (typeof merkleRoot !== 'string' || !HEX64.test(merkleRoot) || typeof token !== 'string') {
      const text = 'not a time stamp of the bundle: merkleRoot (64 hex) and token (base64) expected';
      items.push({ what, checks: [{ name: 'stamp', ok: false, text }] });
      continue;
    }
    const root = merkleRoot.toLowerCase();
    const checks: BundleCheck[] = [
      roots.has(root)
        ? { name: 'root', ok: true, text: `it stamps root ${root}, the Merkle root of the bundle's receipts` }
        : { name: 'root', ok: false, text: `it stamps ${root}, the Merkle root of none of the bundle's receipts` },
    ];
    const reading = await reader.read(Buffer.from(token, 'base64'), Buffer.from(root, 'hex'));
    if (!reading.readable) {
      items.push({ what, checks: [...checks, { name: 'token', ok: false, text: reading.reason }] });
      continue;
    }
    const c = reading.content;
    const expected = createHash('sha256').update(Buffer.from(root, 'hex')).digest('hex');
    checks.push(
      c.hashAlgorithm === SHA256_OID && c.imprint === expected
        ? { name: 'imprint', ok: true, text: `its message imprint is SHA-256 of the root's 32 bytes, ${expected}` }
        : {
            name: 'imprint',
            ok: false,
            text: `its message imprint ${c.imprint} (${c.hashAlgorithm === SHA256_OID ? 'SHA-256' : c.hashAlgorithm}) is not SHA-256 of the root's 32 bytes, ${expected}`,
          },
    );
    const by = `${c.tsaSubject ?? 'an unnamed authority'}${c.tsaIssuer !== null ? ` (issued by ${c.tsaIssuer})` : ''}`;
    const sig = reading.signature;
    checks.push(
      sig.valid === true
        ? {
            name: 'tsa',
            ok: true,
            text: `the authority ${by} signed it at ${c.genTime} (serial ${c.serialNumber}): its signature holds with the certificate the token carries`,
          }
        : {
            name: 'tsa',
            ok: sig.valid,
            text: `the token of ${by}, time ${c.genTime}: ${sig.valid === null ? sig.reason : `its signature does not hold: ${sig.reason}`}`,
          },
    );
    if (checks.every((ch) => ch.ok === true)) held.push({ merkleRoot: root, genTime: c.genTime, tsa: c.tsaSubject });
    items.push({ what, checks });
  }
  return { items, held };
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
