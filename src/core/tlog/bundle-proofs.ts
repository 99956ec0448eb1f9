/**
 * The transparency log's part of a proof bundle (`transparencyLog`, docs/transparency-log.md "In the proof
 * bundle"): the inclusion proof of each receipt's anchor entry, of the request's signing events, and the signed
 * checkpoint they lead to. Checked here with nothing but the bundle (and, when the reader has it, the log's
 * verifier key): the entry is in its canonical form and is the anchor of that receipt (same leaf, key, identity
 * and signed hash), or a signing event of the bundle's request (a SIGNED one naming a signature anchor the
 * bundle proves, with its key), its leaf hash and proof lead to the checkpoint's root, and the checkpoint is
 * signed by the key.
 */
import { decodeEntry, type AnchorEntry, type LogEntry, type SignerEventEntry } from './entry.js';
import { openCheckpoint, readCheckpointUnsigned, type Checkpoint, type Verifier } from './checkpoint.js';
import { HASH_SIZE, leafHash, verifyInclusion } from './rfc6962.js';
import { isUuid } from '../text/uuid.js';

/** An anchor's entry in the log and its RFC 6962 inclusion proof in the bundle's checkpoint. */
export interface LogInclusion {
  /** The entry's index in the log. */
  readonly index: number;
  /** The entry's bytes, base64. */
  readonly entry: string;
  /** The proof's hashes, base64, leaf to root (RFC 6962 PATH). */
  readonly proof: string[];
}

/** The bundle's `transparencyLog` member. */
export interface BundleLogProofs {
  /** The signed checkpoint (C2SP signed note) every proof leads to. */
  readonly checkpoint: string;
  /** One per `signatureReceipts` member, in its order: null for a receipt whose anchor was not in the log yet. */
  readonly signatures: (LogInclusion | null)[];
  /** The audit trail's anchor, when the bundle has its receipt and it was logged. */
  readonly auditTrail?: LogInclusion;
  /**
   * The request's signing events (`signer-event` entries), in log order; a SIGNED event only beside the proof of
   * its signature's anchor. Absent when none is logged (and in bundles made before it).
   */
  readonly events?: LogInclusion[];
}

/** The receipt fields an anchor entry must repeat. */
export interface ReceiptForLog {
  readonly targetHash: string;
  readonly signature?: {
    readonly signedHash: string;
    readonly pubKey: string;
    readonly signedIdentity?: string;
    readonly signedIssuerDomain?: string;
  };
}

export type CheckpointReading =
  | { readonly ok: true; readonly checkpoint: Checkpoint; readonly signed: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * The bundle's checkpoint: opened with the verifier key when one is given (`signed` true), else only read
 * (`signed` false: its root is the bundle's word, not the log's).
 */
export function readBundleCheckpoint(note: unknown, verifier: Verifier | null): CheckpointReading {
  if (typeof note !== 'string') return { ok: false, reason: 'transparencyLog.checkpoint is not a signed note' };
  try {
    if (verifier === null) return { ok: true, checkpoint: readCheckpointUnsigned(note), signed: false };
    return { ok: true, checkpoint: openCheckpoint(note, verifier), signed: true };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

export type InclusionReading =
  | { readonly ok: true; readonly entry: AnchorEntry; readonly index: number }
  | { readonly ok: false; readonly reason: string };

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Bytes(s: unknown): Buffer | null {
  if (typeof s !== 'string' || s.length % 4 !== 0 || !B64.test(s)) return null;
  return Buffer.from(s, 'base64');
}

type Read =
  | {
      readonly ok: true;
      readonly index: number;
      readonly bytes: Buffer;
      readonly hashes: Buffer[];
      readonly entry: LogEntry;
    }
  | { readonly ok: false; readonly reason: string; readonly index: number | null };

/** An inclusion proof's members read and its entry decoded (in its canonical form); its proof not checked yet. */
function readInclusion(raw: unknown): Read {
  const { index, entry, proof } = (raw ?? {}) as { index?: unknown; entry?: unknown; proof?: unknown };
  const bytes = base64Bytes(entry);
  const hashes = Array.isArray(proof) ? proof.map(base64Bytes) : null;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || bytes === null || hashes === null)
    return {
      ok: false,
      reason: 'not an inclusion proof: index, entry (base64) and proof (base64 hashes) expected',
      index: null,
    };
  if (hashes.some((h) => h === null || h.length !== HASH_SIZE))
    return { ok: false, reason: 'a hash of the inclusion proof is not 32 bytes in base64', index };
  try {
    return { ok: true, index, bytes, hashes: hashes as Buffer[], entry: decodeEntry(bytes) };
  } catch (err) {
    return { ok: false, reason: `entry ${index} is not a log entry: ${(err as Error).message}`, index };
  }
}

/** Whether the entry's leaf hash and the proof lead from its index to the checkpoint's root. */
function leadsToRoot(r: Extract<Read, { ok: true }>, checkpoint: Checkpoint): boolean {
  return verifyInclusion(leafHash(r.bytes), r.index, checkpoint.size, r.hashes, checkpoint.root);
}

const notToRoot = (index: number, checkpoint: Checkpoint) =>
  `the inclusion proof of entry ${index} does not lead to the root of the checkpoint of size ${checkpoint.size}`;

/**
 * Whether `raw` (a {@link LogInclusion} from a bundle, untrusted) proves that the anchor of `receipt` is in the
 * log of `checkpoint`. Never throws: each fault is a reason.
 */
export function checkBundleInclusion(raw: unknown, receipt: ReceiptForLog, checkpoint: Checkpoint): InclusionReading {
  const read = readInclusion(raw);
  if (!read.ok) return { ok: false, reason: read.reason };
  const mismatch = anchorMismatch(read.entry, receipt);
  if (mismatch !== null) return { ok: false, reason: `entry ${read.index} is not this receipt's anchor: ${mismatch}` };
  if (!leadsToRoot(read, checkpoint)) return { ok: false, reason: notToRoot(read.index, checkpoint) };
  return { ok: true, entry: read.entry as AnchorEntry, index: read.index };
}

/** What the bundle's signing events are checked against. */
export interface EventBinding {
  /**
   * The anchor entry each signature's proof proved, by its place in `signatureReceipts` (null where its proof is
   * absent or did not hold): a SIGNED event must name one of them.
   */
  readonly signatures: readonly (AnchorEntry | null)[];
  /** The request the bundle names elsewhere (its audit trail's `auditContext.id`), or null when it names none. */
  readonly requestId: string | null;
}

export type EventReading =
  | {
      readonly ok: true;
      readonly entry: SignerEventEntry;
      readonly index: number;
      /** A SIGNED event: the place in `signatureReceipts` of the signature whose anchor it names; else null. */
      readonly signature: number | null;
    }
  | { readonly ok: false; readonly reason: string; readonly index: number | null };

const EVENT_NAMES: readonly string[] = ['SIGNED', 'DECLINED', 'COMPLETED', 'CANCELED'];

/**
 * Whether `raw` (a bundle's `transparencyLog.events`, untrusted) proves the signing events of the bundle's
 * request in the log of `checkpoint`: one reading per member, in its order. Each must be a canonical
 * `signer-event` entry, after the one before it in the log, of the same request as the others (and as the
 * bundle's, when it names one), a SIGNED event naming the anchor of one of the bundle's proven signatures with
 * its key and identity, and its proof must lead to the checkpoint's root. Never throws.
 */
export function checkBundleEvents(raw: unknown, checkpoint: Checkpoint, binding: EventBinding): EventReading[] {
  if (!Array.isArray(raw))
    return [{ ok: false, reason: 'transparencyLog.events is not a list of inclusion proofs', index: null }];
  let request = binding.requestId?.toLowerCase() ?? null;
  const whose = request === null ? "the bundle's first event's" : "the bundle's audit trail's";
  let previous = -1;
  return (raw as unknown[]).map((p): EventReading => {
    const read = readInclusion(p);
    if (!read.ok) return read;
    const { index, entry } = read;
    const refused = (why: string): EventReading => ({ ok: false, reason: `entry ${index} ${why}`, index });
    if (entry.type !== 'signer-event') return refused(`is not a signing event: it is a ${entry.type} entry`);
    if (index <= previous)
      return refused(`is not after the event before it (${previous}): the events come in log order, each once`);
    previous = index;
    const shape = eventShapeFault(entry);
    if (shape !== null) return refused(`is not a signing event of the log: ${shape}`);
    request ??= entry.request.toLowerCase();
    if (entry.request.toLowerCase() !== request)
      return refused(`is an event of request ${entry.request}, not of ${request} (${whose})`);
    let signature: number | null = null;
    if (entry.event === 'SIGNED') {
      const at = binding.signatures.findIndex((a) => a !== null && a.id === entry.anchor);
      if (at < 0)
        return refused(
          `(SIGNED) names anchor ${entry.anchor}, which is not the anchor of a signature the bundle proves`,
        );
      const anchor = binding.signatures[at]!;
      if (entry.pubKey !== anchor.pubKey)
        return refused(
          `(SIGNED) names the key ${entry.pubKey ?? 'null'}, not ${anchor.pubKey ?? 'null'} of its anchor`,
        );
      if (entry.signedIdentity !== anchor.signedIdentity)
        return refused("(SIGNED) names another signed identity than its anchor's");
      signature = at;
    }
    if (!leadsToRoot(read, checkpoint)) return { ok: false, reason: notToRoot(index, checkpoint), index };
    return { ok: true, entry, index, signature };
  });
}

/** Why a canonical `signer-event` entry is not one the log writes (members out of their event's form), or null. */
function eventShapeFault(e: SignerEventEntry): string | null {
  const uuid = (v: unknown) => typeof v === 'string' && isUuid(v);
  if (!EVENT_NAMES.includes(e.event)) return `no event ${String(e.event)}`;
  if (!uuid(e.request)) return 'its request is not a uuid';
  if (typeof e.time !== 'number' || !Number.isInteger(e.time) || Math.abs(e.time) > 8.64e15)
    return 'its time is not a time in milliseconds';
  const bySigner = e.event === 'SIGNED' || e.event === 'DECLINED';
  if (bySigner ? !uuid(e.signer) : e.signer !== null) return `${e.event} ${bySigner ? 'needs' : 'has no'} signer`;
  if (e.event === 'SIGNED') {
    if (!uuid(e.anchor) || typeof e.pubKey !== 'string') return 'SIGNED needs an anchor and a key';
    if (e.signedIdentity !== null && typeof e.signedIdentity !== 'string') return 'its signed identity is not text';
  } else if (e.anchor !== null || e.pubKey !== null || e.signedIdentity !== null)
    return `${e.event} names no anchor, key or identity`;
  return null;
}

/** The request a bundle names: its audit trail's `auditContext.id` (bound to the trail's receipt), or null. */
export function bundleRequestId(bundle: unknown): string | null {
  const id = (bundle as { auditTrailData?: { auditContext?: { id?: unknown } } } | null)?.auditTrailData?.auditContext
    ?.id;
  return typeof id === 'string' ? id : null;
}

/** "SIGNED by signer … of request … at <ISO time>": an event entry in words. */
export function describeEvent(e: SignerEventEntry): string {
  const by = e.signer === null ? '' : ` by signer ${e.signer}`;
  return `${e.event}${by} of request ${e.request} at ${new Date(e.time).toISOString()}`;
}

/** Why the entry is not the anchor of that receipt, or null when it is. */
function anchorMismatch(e: LogEntry, receipt: ReceiptForLog): string | null {
  if (e.type !== 'anchor') return `it is a ${e.type} entry`;
  if (e.leaf !== receipt.targetHash.toLowerCase())
    return `its leaf ${e.leaf ?? 'null'} is not the receipt's targetHash ${receipt.targetHash}`;
  const sig = receipt.signature;
  if (sig === undefined) return e.kind === 'data' ? null : 'it is a signature anchor, the receipt has no signature';
  if (e.kind !== 'signature') return 'it is a data anchor, the receipt is of a signature';
  if (e.pubKey !== sig.pubKey) return `its key ${e.pubKey ?? 'null'} is not the receipt's ${sig.pubKey}`;
  if (e.signedIdentity !== (sig.signedIdentity ?? null)) return "its signed identity is not the receipt's";
  if (e.signedIssuerDomain !== (sig.signedIssuerDomain ?? null)) return "its issuer domain is not the receipt's";
  if (e.public && e.signedHash !== sig.signedHash)
    return `its signed hash ${e.signedHash ?? 'null'} is not the receipt's ${sig.signedHash}`;
  if (!e.public && e.signedHash !== null) return 'a private anchor entry names a signed hash';
  return null;
}
