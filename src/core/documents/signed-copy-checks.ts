/**
 * The verdict on a signed copy's own bytes, shared by `proofseal verify` and the verification pages: the
 * original found by its hash (signed-copy.ts), the PDF signatures checked (pdf-signatures.ts), and where a
 * changed byte is when one is. The file has three parts: the original (the bytes before the original's end,
 * whose SHA-256 is the request's hashToSign), the appended part (the attestation pages and the attached proof
 * bundle, one revision, then the service's signature) and, inside the appended part, the bundle. A changed byte
 * of the original changes its hash; of the appended part, the service signature's digest; of the bundle, that
 * digest and the bundle's own checks (its receipts name the original's hash and are signed and anchored).
 */
import type { PdfSignature } from './pdf-signatures.js';
import type { OriginalSearch } from './signed-copy.js';
import { MAX_REVISION_ENDS } from './signed-copy.js';

/** One line of the verdict; `key` and `params` name it for the pages' languages, `text` is the English. */
export interface CopyCheck {
  readonly state: 'ok' | 'fail';
  readonly key: string;
  readonly params: Record<string, string | number>;
  readonly text: string;
}

export interface SignedCopyInput {
  readonly size: number;
  readonly search: OriginalSearch;
  readonly documentHashes: readonly string[];
  readonly signatures: readonly PdfSignature[];
  /** Whether the bundle's own checks (receipts, signatures, Merkle paths, SPV) hold, the chain position aside. */
  readonly bundleHolds: boolean;
}

const by = (s: PdfSignature) => s.signer ?? 'an unnamed signer';

function originalCheck(input: SignedCopyInput): CopyCheck {
  const { search, size } = input;
  const o = search.original;
  if (o !== null)
    return {
      state: 'ok',
      key: 'copyOriginal',
      params: { length: o.length, size, hash: o.sha256 },
      text: `its first ${o.length} of ${size} bytes, a revision ending at %%EOF, are the original: SHA-256 ${o.sha256}, the document the attached bundle names`,
    };
  const hash = input.documentHashes[0] ?? 'none';
  if (search.stopped)
    return {
      state: 'fail',
      key: 'copyTooManyEnds',
      params: { n: MAX_REVISION_ENDS, hash },
      text: `more than ${MAX_REVISION_ENDS} places in it end a revision (%%EOF), none of the first ${MAX_REVISION_ENDS} ends the original (${hash}); the search stops there`,
    };
  return {
    state: 'fail',
    key: 'copyOriginalChanged',
    params: { hash },
    text: `the original part was changed: no revision of it (a prefix ending at %%EOF) hashes to the document the attached bundle names (${hash}); or it is not a signed copy (an attestation: give the document too)`,
  };
}

/** A signature that does not hold, and where the changed byte is when its digest differs. */
function brokenCheck(input: SignedCopyInput, s: PdfSignature, ofOriginal: boolean): CopyCheck {
  const o = input.search.original;
  const params = { n: s.index, signer: by(s), problem: s.problem ?? '' };
  if (ofOriginal)
    return {
      state: 'fail',
      key: 'copyOriginalSignatureBad',
      params,
      text: `the original's own signature ${s.index} by ${by(s)} does not hold: ${s.problem ?? ''}`,
    };
  if (s.digestMatches === false && o !== null) {
    // Bytes a signature that still holds covers were not changed: the change is after the last of them.
    const held = input.signatures.filter((x) => x.end < s.end && x.digestMatches === true && x.signatureValid === true);
    const from = Math.max(o.length, ...held.map((x) => x.end));
    if (from > o.length)
      return {
        state: 'fail',
        key: 'copyLaterRevisionChanged',
        params: { ...params, from, to: s.end },
        text: `a later revision (bytes ${from} to ${s.end}, after the signature that still holds) was changed: signature ${s.index} by ${by(s)} no longer matches (${s.problem ?? ''})`,
      };
    const part = input.bundleHolds ? 'copyAppendedChanged' : 'copyBundleChanged';
    const where = input.bundleHolds
      ? `the appended part (bytes ${o.length} to ${s.end}: the attestation pages) was changed`
      : `the bundle attached in the appended part (after byte ${o.length}) was changed`;
    return {
      state: 'fail',
      key: part,
      params: { ...params, from: o.length, to: s.end },
      text: `${where}: signature ${s.index} by ${by(s)} no longer matches (${s.problem ?? ''})`,
    };
  }
  return {
    state: 'fail',
    key: 'copySignatureBad',
    params,
    text: `signature ${s.index} by ${by(s)} does not hold: ${s.problem ?? ''}`,
  };
}

function heldCheck(s: PdfSignature, ofOriginal: boolean): CopyCheck {
  const what = s.kind === 'document time-stamp' ? 'document time-stamp' : 'signature';
  const params = { n: s.index, signer: by(s), end: s.end, time: s.time ?? '' };
  if (ofOriginal)
    return {
      state: 'ok',
      key: 'copyOriginalSignatureOk',
      params,
      text: `the original's own ${what} ${s.index} by ${by(s)} still holds (its digest matches, its signature verifies with the certificate inside)`,
    };
  return {
    state: 'ok',
    key: s.kind === 'document time-stamp' ? 'copyTimeStampOk' : 'copySignatureOk',
    params,
    text: `${what} ${s.index} by ${by(s)}${s.time ? ` at ${s.time}` : ''} holds: the SHA-256 of its byte ranges (the first ${s.end} bytes but its /Contents) is what it signs, and it verifies with the certificate inside`,
  };
}

/** The last revision is signed and its signature covers the whole file. */
function wholeFileCheck(input: SignedCopyInput): CopyCheck {
  const { signatures, size } = input;
  const last = signatures.reduce<PdfSignature | null>((m, s) => (m === null || s.end > m.end ? s : m), null);
  if (last === null)
    return {
      state: 'fail',
      key: 'copyUnsigned',
      params: {},
      text: 'it carries no PDF signature: a signed copy is signed by the service that made it',
    };
  if (last.end < size)
    return {
      state: 'fail',
      key: 'copyAfterSignature',
      params: { n: size - last.end, end: last.end },
      text: `its last ${size - last.end} bytes (after byte ${last.end}, where the last signature ends) are signed by no one: bytes were added after the signed copy was signed`,
    };
  return {
    state: 'ok',
    key: 'copyWholeFile',
    params: { n: last.index, signer: by(last), size },
    text: `signature ${last.index} by ${by(last)} covers the whole file (${size} bytes)`,
  };
}

/**
 * The checks of a signed copy's own bytes, in order: the original, each signature (the original's own first),
 * then the whole file covered. A check fails with the part that was changed.
 */
export function signedCopyChecks(input: SignedCopyInput): CopyCheck[] {
  const originalEnd = input.search.original?.length ?? 0;
  const checks = [originalCheck(input)];
  for (const s of input.signatures) {
    const ofOriginal = s.end <= originalEnd;
    const holds = s.digestMatches === true && s.signatureValid === true;
    checks.push(holds ? heldCheck(s, ofOriginal) : brokenCheck(input, s, ofOriginal));
  }
  checks.push(wholeFileCheck(input));
  return checks;
}

/** The name of the certificate that signed the signed copy last (the service's), for the verdict. */
export function copySigner(signatures: readonly PdfSignature[]): string | null {
  const cms = signatures.filter((s) => s.kind === 'signature');
  return cms.length === 0 ? null : by(cms.reduce((m, s) => (s.end > m.end ? s : m)));
}
