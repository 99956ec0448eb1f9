/**
 * The `TimestampTokenReader` with PKI.js (the library the RFC 3161 client uses): the token is parsed as a CMS
 * ContentInfo holding SignedData whose content is a TSTInfo; PKI.js checks, with the signer certificate the token
 * carries, the TSTInfo's imprint against the message, the signed attributes' message digest against the TSTInfo
 * and the signature over the signed attributes. No chain to a trust anchor is built: the reader says whose
 * certificate signed, and `openssl ts -verify -CAfile` answers whether to trust it.
 */
import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import type { TimestampSignature, TimestampTokenReader } from '../../app/signature-requests/timestamp-token.port.js';

const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const ID_CT_TSTINFO = '1.2.840.113549.1.9.16.1.4';
const SHA256 = '2.16.840.1.101.3.4.2.1';

/** Short names of the attribute types a TSA's name usually holds (RFC 4514's, plus e-mail). */
const NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

function nameOf(rdn: pkijs.RelativeDistinguishedNames): string {
  return rdn.typesAndValues
    .map((tv) => {
      const value = (tv.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
      return `${NAMES[tv.type] ?? tv.type}=${typeof value === 'string' ? value : '#'}`;
    })
    .join(', ');
}

const hex = (view: ArrayBuffer | Uint8Array): string => Buffer.from(view as Uint8Array).toString('hex');

export function pkijsTimestampTokenReader(): TimestampTokenReader {
  return {
    async read(token, message) {
      let signed: pkijs.SignedData;
      let info: pkijs.TSTInfo;
      try {
        const content = pkijs.ContentInfo.fromBER(token);
        if (content.contentType !== ID_SIGNED_DATA) throw new Error('not CMS SignedData');
        signed = new pkijs.SignedData({ schema: content.content });
        if (signed.encapContentInfo.eContentType !== ID_CT_TSTINFO) throw new Error('its content is not a TSTInfo');
        const eContent = signed.encapContentInfo.eContent;
        if (!eContent) throw new Error('it holds no TSTInfo');
        info = pkijs.TSTInfo.fromBER(eContent.getValue());
      } catch (err) {
        return { readable: false, reason: `not an RFC 3161 time-stamp token: ${(err as Error).message}` };
      }
      const sid = signed.signerInfos[0]?.sid;
      const cert = signed.certificates?.find(
        (c): c is pkijs.Certificate =>
          c instanceof pkijs.Certificate &&
          sid instanceof pkijs.IssuerAndSerialNumber &&
          c.issuer.isEqual(sid.issuer) &&
          c.serialNumber.isEqual(sid.serialNumber),
      );
      const imprint = hex(info.messageImprint.hashedMessage.valueBlock.valueHexView);
      const content = {
        hashAlgorithm: info.messageImprint.hashAlgorithm.algorithmId,
        imprint,
        genTime: info.genTime.toISOString(),
        serialNumber: hex(info.serialNumber.valueBlock.valueHexView),
        tsaSubject: cert ? nameOf(cert.subject) : null,
        tsaIssuer: cert ? nameOf(cert.issuer) : null,
      };
      return { readable: true, content, signature: await signatureOf(signed, content, message) };
    },
  };
}

async function signatureOf(
  signed: pkijs.SignedData,
  content: { hashAlgorithm: string; imprint: string },
  message: Uint8Array,
): Promise<TimestampSignature> {
  const digest = createHash('sha256').update(message).digest('hex');
  if (content.hashAlgorithm !== SHA256 || content.imprint !== digest)
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
    const message = ((err as { message?: string }).message ?? String(err)).replace(/^Error during verification: /, '');
    return {
      valid: false,
      reason: /Message digest doesn't match/.test(message)
        ? 'its TSTInfo (time, serial, imprint) is not what the authority signed: the message digest differs'
        : message,
    };
  }
}
