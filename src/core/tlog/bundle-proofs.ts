/**
 * The transparency log's part of a proof bundle (`transparencyLog`, docs/transparency-log.md "In the proof
 * bundle"): the inclusion proof of each receipt's anchor entry and the signed checkpoint they lead to. Checked
 * here with nothing but the bundle (and, when the reader has it, the log's verifier key): the entry is in its
 * canonical form and is the anchor of that receipt (same leaf, key, identity and signed hash), its leaf hash
 * and proof lead to the checkpoint's root, and the checkpoint is signed by the key.
 */
import { decodeEntry, type AnchorEntry } from './entry.js';
import { openCheckpoint, readCheckpointUnsigned, type Checkpoint, type Verifier } from './checkpoint.js';
import { HASH_SIZE, leafHash, verifyInclusion } from './rfc6962.js';

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

/**
 * Whether `raw` (a {@link LogInclusion} from a bundle, untrusted) proves that the anchor of `receipt` is in the
 * log of `checkpoint`. Never throws: each fault is a reason.
 */
export function checkBundleInclusion(raw: unknown, receipt: ReceiptForLog, checkpoint: Checkpoint): InclusionReading {
  const { index, entry, proof } = (raw ?? {}) as { index?: unknown; entry?: unknown; proof?: unknown };
  const bytes = base64Bytes(entry);
  const hashes = Array.isArray(proof) ? proof.map(base64Bytes) : null;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || bytes === null || hashes === null)
    return { ok: false, reason: 'not an inclusion proof: index, entry (base64) and proof (base64 hashes) expected' };
  if (hashes.some((h) => h === null || h.length !== HASH_SIZE))
    return { ok: false, reason: 'a hash of the inclusion proof is not 32 bytes in base64' };
  let decoded;
  try {
    decoded = decodeEntry(bytes);
  } catch (err) {
    return { ok: false, reason: `entry ${index} is not a log entry: ${(err as Error).message}` };
  }
  const mismatch = anchorMismatch(decoded, receipt);
  if (mismatch !== null) return { ok: false, reason: `entry ${index} is not this receipt's anchor: ${mismatch}` };
  if (!verifyInclusion(leafHash(bytes), index, checkpoint.size, hashes as Buffer[], checkpoint.root))
    return {
      ok: false,
      reason: `the inclusion proof of entry ${index} does not lead to the root of the checkpoint of size ${checkpoint.size}`,
    };
  return { ok: true, entry: decoded as AnchorEntry, index };
}

/** Why the entry is not the anchor of that receipt, or null when it is. */
function anchorMismatch(e: ReturnType<typeof decodeEntry>, receipt: ReceiptForLog): string | null {
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
