/**
 * X.509 names and certificates as the verifiers show them (`CN=Test TSA, O=Example`), and the certificate of a
 * CMS signer among those the SignedData carries. PKI.js objects, no I/O.
 */
import * as pkijs from 'pkijs';

/** Short names of the attribute types a signer's name usually holds (RFC 4514's, plus e-mail). */
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

/** A distinguished name as `CN=…, O=…`, in the certificate's order; a value that is not a string shows as `#`. */
export function nameOf(rdn: pkijs.RelativeDistinguishedNames): string {
  return rdn.typesAndValues
    .map((tv) => {
      const value = (tv.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
      return `${NAMES[tv.type] ?? tv.type}=${typeof value === 'string' ? value : '#'}`;
    })
    .join(', ');
}

/** The certificate of the SignedData's first signer, by issuer and serial or by subject key identifier. */
export function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate | undefined {
  const sid = signed.signerInfos[0]?.sid;
  return signed.certificates?.find((c): c is pkijs.Certificate => {
    if (!(c instanceof pkijs.Certificate)) return false;
    if (sid instanceof pkijs.IssuerAndSerialNumber)
      return c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber);
    return false;
  });
}

export const hexOf = (view: ArrayBuffer | Uint8Array): string =>
  Array.from(view instanceof Uint8Array ? view : new Uint8Array(view), (b) => b.toString(16).padStart(2, '0')).join('');
