/**
 * A PDF's own signatures, checked as a PDF reader checks them (poppler's pdfsig, Adobe): each signature
 * dictionary's `/ByteRange [a b c d]` names the bytes signed (everything but its `/Contents`), and `/Contents`
 * holds the CMS SignedData (PAdES, `ETSI.CAdES.detached`) or an RFC 3161 token (a document time-stamp,
 * `ETSI.RFC3161`). For each: the SHA-256 of the ranges is the digest the CMS signs (its `message-digest`
 * attribute, or the token's imprint), and the CMS signature holds with the certificate it carries. No trust
 * anchor: the signer's name is said, and pinning its certificate is the reader's call (docs/attestation.md).
 *
 * Signatures are found by scanning for `/ByteRange`, not through the cross-reference sections a changed file
 * may lie about; at most `MAX_PDF_SIGNATURES` are read. Pure (WebCrypto through PKI.js): the command line and
 * the verification pages share it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { hexOf, nameOf, signerCertificate } from '../pki/names.js';
import { readTimestampToken } from '../pki/timestamp-token.js';

/**
 * More signatures than a real signed copy carries; a file with more is read for the first ones only. Each one
 * costs a hash of the file, so the cap bounds the work to that many passes.
 */
export const MAX_PDF_SIGNATURES = 32;
/** The longest `/Contents` read (hex digits): a CMS with its chain and time-stamp token is some tens of KB. */
const MAX_CONTENTS_HEX = 1024 * 1024;

const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const ID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';

/** What one signature of a PDF is and whether it holds. */
export interface PdfSignature {
  /** 1 for the first in the file. */
  readonly index: number;
  readonly kind: 'signature' | 'document time-stamp';
  readonly byteRange: readonly [number, number, number, number];
  /** The length of the revision it signs (c + d): the bytes before this end, but its /Contents, are signed. */
  readonly end: number;
  /** The SHA-256 of the ranges is the digest the CMS signs; null when the CMS could not be read. */
  readonly digestMatches: boolean | null;
  /** The CMS signature holds with the certificate it carries; null when not checked (said in `problem`). */
  readonly signatureValid: boolean | null;
  /** Subject of the signing certificate (`CN=…, O=…`); null when the CMS carries none. */
  readonly signer: string | null;
  /** For a document time-stamp: the authority's time, ISO 8601. */
  readonly time?: string;
  /** Why it does not hold, or was not checked. */
  readonly problem?: string;
}

const OBJECT_REACH = 256 * 1024;
const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/g;

/**
 * Each `/ByteRange` of the file with the `/SubFilter` of its own object (from its `obj` to its `endobj`, so a
 * neighbouring signature's dictionary is never read for it).
 */
function byteRanges(text: string): { range: [number, number, number, number]; at: number; rfc3161: boolean }[] {
  const found = [];
  for (const m of text.matchAll(BYTE_RANGE)) {
    if (found.length === MAX_PDF_SIGNATURES) break;
    // At most OBJECT_REACH either side: a /Contents is some kilobytes, and a hostile file cannot make each read long.
    const from = Math.max(0, m.index - OBJECT_REACH);
    const start = Math.max(from, text.lastIndexOf(' obj', m.index));
    const end = text.indexOf('endobj', m.index);
    const own = text.slice(start, end === -1 || end > m.index + OBJECT_REACH ? m.index + OBJECT_REACH : end);
    const rfc3161 = /\/SubFilter\s*\/ETSI\.RFC3161\b/.test(own);
    const range = [1, 2, 3, 4].map((i) => Number(m[i])) as [number, number, number, number];
    found.push({ range, at: m.index, rfc3161 });
  }
  return found;
}

/** The DER the `/Contents` hex string holds (its zero padding cut by the DER's own length); null when none. */
function contentsDer(pdf: Uint8Array, from: number, to: number): Uint8Array | null {
  if (pdf[from] !== 0x3c || pdf[to - 1] !== 0x3e) return null; // < … >
  const hex = new TextDecoder('latin1').decode(pdf.subarray(from + 1, to - 1)).replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  const der = asn1js.fromBER(bytes);
  if (der.offset === -1) return null;
  return bytes.subarray(0, der.offset);
}

function concat(x: Uint8Array, y: Uint8Array): Uint8Array {
  const out = new Uint8Array(x.length + y.length);
  out.set(x);
  out.set(y, x.length);
  return out;
}

/** The SHA-256 of the two ranges. */
function rangesDigest(pdf: Uint8Array, [a, b, c, d]: readonly number[]): Uint8Array {
  return sha256
    .create()
    .update(pdf.subarray(a!, a! + b!))
    .update(pdf.subarray(c!, c! + d!))
    .digest();
}

/**
 * Every signature of `pdf`, in the order of the file, each checked: digest over its byte ranges, signature with
 * the certificate inside. Never throws on a hostile file: each fault is the signature's `problem`.
 */
export async function checkPdfSignatures(pdf: Uint8Array): Promise<PdfSignature[]> {
  const text = new TextDecoder('latin1').decode(pdf);
  const out: PdfSignature[] = [];
  for (const [i, found] of byteRanges(text).entries()) {
    const [a, b, c, d] = found.range;
    const base = {
      index: i + 1,
      kind: found.rfc3161 ? ('document time-stamp' as const) : ('signature' as const),
      byteRange: found.range,
      end: c + d,
    };
    const bad = (problem: string): PdfSignature => ({
      ...base,
      digestMatches: null,
      signatureValid: null,
      signer: null,
      problem,
    });
    if (a !== 0 || b === 0 || c <= b || c + d > pdf.length) {
      out.push(bad(`its /ByteRange [${a} ${b} ${c} ${d}] does not fit the file (${pdf.length} bytes)`));
      continue;
    }
    if (c - b > MAX_CONTENTS_HEX) {
      out.push(bad(`its /Contents is longer than ${MAX_CONTENTS_HEX} bytes: not read`));
      continue;
    }
    const der = contentsDer(pdf, b, c);
    if (der === null) {
      out.push(bad('the gap its /ByteRange leaves is not a /Contents hex string holding DER'));
      continue;
    }
    const digest = rangesDigest(pdf, found.range);
    const signedBytes = () => concat(pdf.subarray(a, a + b), pdf.subarray(c, c + d));
    out.push({
      ...base,
      ...(await (found.rfc3161 ? timeStampOf(der, digest, signedBytes()) : cmsOf(der, digest, signedBytes))),
    });
  }
  return out;
}

type Verdict = Omit<PdfSignature, 'index' | 'kind' | 'byteRange' | 'end'>;

/** A document time-stamp: an RFC 3161 token whose imprint is the ranges' SHA-256 (`signed`: the ranges' bytes). */
async function timeStampOf(der: Uint8Array, digest: Uint8Array, signed: Uint8Array): Promise<Verdict> {
  const reading = await readTimestampToken(der, signed);
  if (!reading.readable) return { digestMatches: null, signatureValid: null, signer: null, problem: reading.reason };
  const c = reading.content;
  const digestMatches = c.imprint === hexOf(digest);
  const sig = reading.signature;
  return {
    digestMatches,
    signatureValid: digestMatches ? sig.valid : null,
    signer: c.tsaSubject,
    time: c.genTime,
    ...(!digestMatches
      ? { problem: `the token stamps ${c.imprint}, not the SHA-256 of the byte ranges, ${hexOf(digest)}` }
      : sig.valid !== true
        ? { problem: sig.reason }
        : {}),
  };
}

/** A CMS SignedData (detached): its message-digest attribute is the ranges' SHA-256, its signature holds. */
async function cmsOf(der: Uint8Array, digest: Uint8Array, signedBytes: () => Uint8Array): Promise<Verdict> {
  let signed: pkijs.SignedData;
  try {
    const content = pkijs.ContentInfo.fromBER(new Uint8Array(der));
    if (content.contentType !== ID_SIGNED_DATA) throw new Error('not CMS SignedData');
    signed = new pkijs.SignedData({ schema: content.content });
    if (signed.signerInfos.length === 0) throw new Error('it has no signer');
  } catch (err) {
    const problem = `its /Contents is not a CMS signature: ${(err as Error).message}`;
    return { digestMatches: null, signatureValid: null, signer: null, problem };
  }
  const cert = signerCertificate(signed);
  const signer = cert ? nameOf(cert.subject) : null;
  const attr = signed.signerInfos[0]!.signedAttrs?.attributes.find((x) => x.type === ID_MESSAGE_DIGEST);
  const claimed = attr?.values[0] instanceof asn1js.OctetString ? hexOf(attr.values[0].valueBlock.valueHexView) : null;
  if (claimed === null)
    return { digestMatches: null, signatureValid: null, signer, problem: 'its CMS has no message-digest attribute' };
  if (claimed !== hexOf(digest))
    return {
      digestMatches: false,
      signatureValid: null,
      signer,
      problem: `the SHA-256 of its byte ranges is ${hexOf(digest)}, the signature signs ${claimed}: a signed byte was changed`,
    };
  if (cert === undefined)
    return { digestMatches: true, signatureValid: null, signer, problem: 'its CMS carries no signer certificate' };
  return { digestMatches: true, signer, ...(await signatureOf(signed, signedBytes())) };
}

/** The signature over the signed attributes, with the signer's certificate (the digest was compared already). */
async function signatureOf(
  signed: pkijs.SignedData,
  data: Uint8Array,
): Promise<{ signatureValid: boolean; problem?: string }> {
  try {
    const r = await signed.verify({ signer: 0, data: data.slice().buffer, checkChain: false, extendedMode: true });
    return r.signatureVerified === true
      ? { signatureValid: true }
      : { signatureValid: false, problem: 'its signature does not verify with the certificate it carries' };
  } catch (err) {
    const text = ((err as { message?: string }).message ?? String(err)).replace(/^Error during verification: /, '');
    return { signatureValid: false, problem: `its signature does not verify: ${text}` };
  }
}
