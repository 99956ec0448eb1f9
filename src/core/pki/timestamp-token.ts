/**
 * Reading an RFC 3161 time-stamp token with PKI.js: the token is parsed as a CMS ContentInfo holding SignedData
 * whose content is a TSTInfo; PKI.js checks, with the signer certificate the token carries, the signed
 * attributes' message digest against the TSTInfo and the signature over the signed attributes. No chain to a
 * trust anchor is built: the reader says whose certificate signed, and `openssl ts -verify -CAfile` answers
 * whether to trust it. Pure (WebCrypto, which Node and browsers both have): the command line, the verification
 * pages and the PDF signature check (a document time-stamp is such a token) share it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import * as pkijs from 'pkijs';
import { hexOf, nameOf, signerCertificate } from './names.js';

export interface TimestampTokenContent {
  /** The imprint's hash algorithm, an OID (SHA-256: 2.16.840.1.101.3.4.2.1). */
  readonly hashAlgorithm: string;
  /** The hashed message, lowercase hex. */
  readonly imprint: string;
  /** The authority's time (`genTime`), ISO 8601. */
  readonly genTime: string;
  /** The token's serial number, hex. */
  readonly serialNumber: string;
  /** Subject and issuer of the certificate that signed the token (`CN=…, O=…`); null when it carries none. */
  readonly tsaSubject: string | null;
  readonly tsaIssuer: string | null;
}

export type TimestampSignature =
  | { readonly valid: true }
  /** `valid: null`: not checked (the imprint is not of the message, so the signature cannot be told apart). */
  | { readonly valid: false | null; readonly reason: string };

export type TimestampTokenReading =
  | { readonly readable: true; readonly content: TimestampTokenContent; readonly signature: TimestampSignature }
  | { readonly readable: false; readonly reason: string };

const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const ID_CT_TSTINFO = '1.2.840.113549.1.9.16.1.4';
export const SHA256_OID = '2.16.840.1.101.3.4.2.1';

/**
 * Reads the DER token and checks its signature over `message` (the bytes stamped), with the certificate inside
 * the token; no trust anchor is consulted. Never throws: an unreadable token is `readable: false` with the reason.
 */
export async function readTimestampToken(token: Uint8Array, message: Uint8Array): Promise<TimestampTokenReading> {
  let signed: pkijs.SignedData;
  let info: pkijs.TSTInfo;
  try {
    const content = pkijs.ContentInfo.fromBER(new Uint8Array(token));
    if (content.contentType !== ID_SIGNED_DATA) throw new Error('not CMS SignedData');
    signed = new pkijs.SignedData({ schema: content.content });
    if (signed.encapContentInfo.eContentType !== ID_CT_TSTINFO) throw new Error('its content is not a TSTInfo');
    const eContent = signed.encapContentInfo.eContent;
    if (!eContent) throw new Error('it holds no TSTInfo');
    info = pkijs.TSTInfo.fromBER(eContent.getValue());
  } catch (err) {
    return { readable: false, reason: `not an RFC 3161 time-stamp token: ${(err as Error).message}` };
  }
  const cert = signerCertificate(signed);
  const content = {
    hashAlgorithm: info.messageImprint.hashAlgorithm.algorithmId,
    imprint: hexOf(info.messageImprint.hashedMessage.valueBlock.valueHexView),
    genTime: info.genTime.toISOString(),
    serialNumber: hexOf(info.serialNumber.valueBlock.valueHexView),
    tsaSubject: cert ? nameOf(cert.subject) : null,
    tsaIssuer: cert ? nameOf(cert.issuer) : null,
  };
  return { readable: true, content, signature: await signatureOf(signed, content, message) };
}

async function signatureOf(
  signed: pkijs.SignedData,
  content: { hashAlgorithm: string; imprint: string },
  message: Uint8Array,
): Promise<TimestampSignature> {
  if (content.hashAlgorithm !== SHA256_OID || content.imprint !== hexOf(sha256(message)))
    return { valid: null, reason: 'not checked: the token stamps another message' };
  try {
    const r = await signed.verify({
      signer: 0,
      data: new Uint8Array(message).buffer,
      checkChain: false,
      extendedMode: true,
    });
    return r.signatureVerified === true
      ? { valid: true }
      : { valid: false, reason: 'the signature does not verify with the certificate the token carries' };
  } catch (err) {
    const text = ((err as { message?: string }).message ?? String(err)).replace(/^Error during verification: /, '');
    return {
      valid: false,
      reason: /Message digest doesn't match/.test(text)
        ? 'its TSTInfo (time, serial, imprint) is not what the authority signed: the message digest differs'
        : text,
    };
  }
}
