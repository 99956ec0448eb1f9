/**
 * Reading a signed copy without help: the uploaded PDF is the signed copy's first bytes, unchanged, and each
 * PDF revision ends with `%%EOF` (and an end of line). So the original is the prefix, ending at one of those
 * markers, whose SHA-256 is the request's hashToSign: found by hashing the file once, from the start, and
 * comparing the hash at each marker. Nothing here trusts the file: the prefix is found by its hash only.
 * Pure (no I/O): used by the verification page in the browser and by `proofseal verify`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const EOF = [0x25, 0x25, 0x45, 0x4f, 0x46]; // %%EOF
const CR = 0x0d;
const LF = 0x0a;

/**
 * At most this many revision ends are hashed (a digest each). A real PDF has a few, a heavily edited one some
 * hundreds; a hostile file of `%%EOF` lines has millions (issue 32, row 8: 10.5 M ends in 24.5 MB took 130 s).
 */
export const MAX_REVISION_ENDS = 4096;

/**
 * The lengths of the prefixes that end a revision, ascending and shorter than the file: just after each
 * `%%EOF`, and after the CR, LF or CRLF that follows it (writers differ; each is a candidate). Lazy: a caller
 * that stops early does not pay for the rest of the file.
 */
export function* revisionEndsOf(pdf: Uint8Array): Generator<number> {
  for (let i = pdf.indexOf(EOF[0]!); i !== -1 && i + EOF.length <= pdf.length; i = pdf.indexOf(EOF[0]!, i + 1)) {
    if (!EOF.every((b, k) => pdf[i + k] === b)) continue;
    let end = i + EOF.length;
    if (end < pdf.length) yield end;
    if (pdf[end] === CR && (end += 1) < pdf.length) yield end;
    if (pdf[end] === LF && end + 1 < pdf.length) yield end + 1;
  }
}

/** Every revision end of `pdf` (see `revisionEndsOf`), as a list. */
export function revisionEnds(pdf: Uint8Array): number[] {
  return [...revisionEndsOf(pdf)];
}

/** How the search for the original went: what it found, how many ends it hashed, whether it stopped at the cap. */
export interface OriginalSearch {
  readonly original: SignedCopyOriginal | null;
  /** Revision ends whose prefix was hashed (at most `MAX_REVISION_ENDS`). */
  readonly endsHashed: number;
  /** True when more ends were left unhashed: the original, if any, was not searched for among them. */
  readonly stopped: boolean;
}

/**
 * The earliest revision of `pdf` whose SHA-256 is one of `hashes` (hex, any case): the original document
 * inside a signed copy. One pass over the file, and one digest per revision end, at most `limit` of them; the
 * running hash is copied into one scratch state for each digest (no allocation per end).
 */
export function searchOriginal(
  pdf: Uint8Array,
  hashes: readonly string[],
  limit: number = MAX_REVISION_ENDS,
): OriginalSearch {
  const wanted = new Set(hashes.map((h) => h.toLowerCase()));
  if (wanted.size === 0) return { original: null, endsHashed: 0, stopped: false };
  const hash = sha256.create();
  const scratch = sha256.create();
  const digest = new Uint8Array(32);
  let hashed = 0;
  let endsHashed = 0;
  for (const end of revisionEndsOf(pdf)) {
    if (endsHashed === limit) return { original: null, endsHashed, stopped: true };
    hash.update(pdf.subarray(hashed, end));
    hashed = end;
    endsHashed += 1;
    hash._cloneInto(scratch).digestInto(digest);
    const hex = bytesToHex(digest);
    if (wanted.has(hex)) return { original: { length: end, sha256: hex }, endsHashed, stopped: false };
  }
  return { original: null, endsHashed, stopped: false };
}

/** The original found by `searchOriginal`; null when none was (or the search stopped at its cap). */
export function originalRevision(pdf: Uint8Array, hashes: readonly string[]): SignedCopyOriginal | null {
  return searchOriginal(pdf, hashes).original;
}

/** The original inside a signed copy: its bytes are the signed copy's first `length` bytes. */
export interface SignedCopyOriginal {
  readonly length: number;
  /** Their SHA-256, lowercase hex (the bundle's hashToSign). */
  readonly sha256: string;
}

/**
 * The original inside a signed copy, given the proof bundle it carries: the revision whose hash is the
 * document hash the bundle names (its sealed trail's `hashToSign`, its receipts' `signature.signedHash` or
 * `targetHash`). Null when there is none: then the file is not a signed copy of that bundle's document.
 */
export function originalInSignedCopy(pdf: Uint8Array, bundle: unknown): SignedCopyOriginal | null {
  return originalRevision(pdf, documentHashesOf(bundle));
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The document hashes a proof bundle names: `hashToSign` of its audit context, then each receipt's `targetHash`. */
export function documentHashesOf(bundle: unknown): string[] {
  if (bundle === null || typeof bundle !== 'object') return [];
  const b = bundle as { auditTrailData?: { auditContext?: { hashToSign?: unknown } }; signatureReceipts?: unknown };
  const found = [b.auditTrailData?.auditContext?.hashToSign];
  if (Array.isArray(b.signatureReceipts))
    for (const r of b.signatureReceipts as { targetHash?: unknown; signature?: { signedHash?: unknown } }[])
      found.push(r?.signature?.signedHash, r?.targetHash);
  const hashes = found.filter((h): h is string => typeof h === 'string' && HEX64.test(h)).map((h) => h.toLowerCase());
  return [...new Set(hashes)];
}

/**
 * The name of an attached proof bundle that is no longer a bundle (a `proof-bundle-….json` file whose bytes are
 * not JSON with `signatureReceipts`): what a changed byte of a signed copy's bundle leaves. Null when none is.
 */
export function brokenBundleAmong(
  files: readonly { readonly name: string; readonly bytes: Uint8Array }[],
): string | null {
  const named = files.filter((f) => /^proof-bundle.*\.json$/i.test(f.name));
  return proofBundleAmong(named) === null && named.length > 0 ? named[0]!.name : null;
}

/**
 * The proof bundle among the files a PDF carries (an attestation's or a signed copy's): the first `.json` file
 * whose JSON has `signatureReceipts`. Null when none has. Used by the page and by `proofseal verify`.
 */
export function proofBundleAmong(files: readonly { readonly name: string; readonly bytes: Uint8Array }[]): unknown {
  for (const file of files) {
    if (!file.name.toLowerCase().endsWith('.json')) continue;
    try {
      const json = JSON.parse(new TextDecoder().decode(file.bytes)) as { signatureReceipts?: unknown };
      if (json !== null && typeof json === 'object' && Array.isArray(json.signatureReceipts)) return json;
    } catch {
      continue;
    }
  }
  return null;
}
