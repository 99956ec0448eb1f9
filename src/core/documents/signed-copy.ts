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
 * The lengths of the prefixes that end a revision, ascending and shorter than the file: just after each
 * `%%EOF`, and after the CR, LF or CRLF that follows it (writers differ; each is a candidate).
 */
export function revisionEnds(pdf: Uint8Array): number[] {
  const ends = new Set<number>();
  for (let i = pdf.indexOf(EOF[0]!); i !== -1 && i + EOF.length <= pdf.length; i = pdf.indexOf(EOF[0]!, i + 1)) {
    if (!EOF.every((b, k) => pdf[i + k] === b)) continue;
    let end = i + EOF.length;
    ends.add(end);
    if (pdf[end] === CR) ends.add((end += 1));
    if (pdf[end] === LF) ends.add(end + 1);
  }
  return [...ends].filter((n) => n < pdf.length).sort((a, b) => a - b);
}

/**
 * The earliest revision of `pdf` whose SHA-256 is one of `hashes` (hex, any case): the original document
 * inside a signed copy. One pass over the file, whatever the number of revisions. Null when none has.
 */
export function originalRevision(pdf: Uint8Array, hashes: readonly string[]): SignedCopyOriginal | null {
  const wanted = new Set(hashes.map((h) => h.toLowerCase()));
  if (wanted.size === 0) return null;
  const hash = sha256.create();
  let hashed = 0;
  for (const end of revisionEnds(pdf)) {
    hash.update(pdf.subarray(hashed, end));
    hashed = end;
    const hex = bytesToHex(hash.clone().digest());
    if (wanted.has(hex)) return { length: end, sha256: hex };
  }
  return null;
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
