/**
 * Who signs the PDFs this service produces: a private key and its certificate chain. Either the operator's
 * PKCS#12 file (a certificate from a CA PDF readers trust makes them show the signature as trusted), or the
 * service's own self-signed certificate over a P-256 key derived from SECRET_KEY (the default run signs too).
 *
 * The service's own key is not the platform key (secp256k1, Bitcoin message signatures, which no PDF reader
 * verifies): it is a separate P-256 key, HKDF-derived under SECRET_KEY with its own label, so nothing is
 * stored and every process of one deployment signs with the same key and the same certificate.
 * The certificate is deterministic too (fixed validity, serial from the key, RFC 6979 signature): issued
 * "once" in the sense that every process rebuilds the very same bytes.
 */
import { createHash, createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { derivedKey } from '../../core/crypto/derived-key.js';

export interface SigningIdentity {
  /** DER certificates: the signer's first, then the rest of its chain as the PKCS#12 gave it. */
  readonly certificates: readonly pkijs.Certificate[];
  readonly privateKey: webcrypto.CryptoKey;
}

/** Domain separation of the PDF signing key from every other key derived from SECRET_KEY. */
const KEY_SALT = 'proofseal/pades/v1';
const OID = {
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  rsaEncryption: '1.2.840.113549.1.1.1',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
} as const;
const NAMED_CURVES: Record<string, string> = {
  '1.2.840.10045.3.1.7': 'P-256',
  '1.3.132.0.34': 'P-384',
  '1.3.132.0.35': 'P-521',
};
/** Validity of the service's certificate: from a fixed past day to RFC 5280's "no well-defined expiration". */
const NOT_BEFORE = new Date(Date.UTC(2025, 0, 1));
const NOT_AFTER = new Date(Date.UTC(9999, 11, 31, 23, 59, 59));

/** The 32-byte P-256 secret key of the service under `secretKey` (a new label in the rare invalid case). */
function serviceScalar(secretKey: string): Uint8Array {
  for (let attempt = 0; ; attempt += 1) {
    const d = new Uint8Array(derivedKey(secretKey, KEY_SALT, `pdf-signing-key/p256/${attempt}`));
    if (p256.utils.isValidSecretKey(d)) return d;
  }
}

/**
 * The service's own signing identity: the P-256 key derived from `secretKey` and a self-signed certificate
 * whose subject is CN=`serviceName` (same inputs, same bytes).
 */
export async function serviceSigningIdentity(secretKey: string, serviceName: string): Promise<SigningIdentity> {
  const d = serviceScalar(secretKey);
  const point = p256.getPublicKey(d, false);
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    d: Buffer.from(d).toString('base64url'),
    x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
    y: Buffer.from(point.subarray(33)).toString('base64url'),
  };
  const privateKey = await webcrypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  return { certificates: [selfSignedCertificate(d, point, serviceName)], privateKey };
}

function selfSignedCertificate(d: Uint8Array, point: Uint8Array, serviceName: string): pkijs.Certificate {
  const keyId = createHash('sha256').update(point).digest();
  const serial = Buffer.from(keyId.subarray(0, 16));
  serial[0] = (serial[0]! & 0x7f) | 0x40; // a positive INTEGER, minimal in DER
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  const name = [
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: serviceName }) }),
  ];
  cert.subject.typesAndValues = name;
  cert.issuer.typesAndValues = name;
  cert.notBefore.value = NOT_BEFORE;
  cert.notAfter = new pkijs.Time({ type: 1, value: NOT_AFTER }); // GeneralizedTime past 2049
  cert.subjectPublicKeyInfo = new pkijs.PublicKeyInfo({
    algorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: OID.ecPublicKey,
      algorithmParams: new asn1js.ObjectIdentifier({ value: OID.p256 }),
    }),
    subjectPublicKey: new asn1js.BitString({ valueHex: point }),
  });
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      // digitalSignature (bit 0) and nonRepudiation/contentCommitment (bit 1): 6 unused bits of one byte.
      extnValue: new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }).toBER(),
    }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      extnValue: new asn1js.OctetString({ valueHex: keyId.subarray(0, 20) }).toBER(),
    }),
  ];
  const algorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaSha256 });
  cert.signature = algorithm;
  cert.signatureAlgorithm = algorithm;
  const tbs = new Uint8Array(cert.encodeTBS().toBER());
  cert.tbsView = tbs;
  // RFC 6979: the same TBS and key always give the same signature, so the same certificate.
  cert.signatureValue = new asn1js.BitString({ valueHex: p256.sign(tbs, d, { format: 'der' }) });
  return pkijs.Certificate.fromBER(cert.toSchema(true).toBER());
}

/** Why an operator's PKCS#12 cannot be used (wrong password, no key, no certificate, unsupported key). */
export class SigningIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningIdentityError';
  }
}

/**
 * The identity in an operator's PKCS#12 (RFC 7292, password integrity, PBES2-encrypted as OpenSSL 3 writes
 * it by default): its one private key, the certificate of that key first, then the other certificates.
 * @throws SigningIdentityError on a wrong password or a file without a usable key and certificate
 */
export async function p12SigningIdentity(p12: Uint8Array, password: string): Promise<SigningIdentity> {
  const secret = new TextEncoder().encode(password).buffer as ArrayBuffer;
  const bags = await p12Bags(p12, secret);
  const keyInfo = bags.keys[0] ?? fail('no private key in the PKCS#12 file');
  const pkcs8 = keyInfo.toSchema().toBER();
  const ordered = signerFirst(bags.certificates, keyInfo);
  const own = ordered[0] ?? fail('no certificate for the private key in the PKCS#12 file');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, keyAlgorithm(own), false, ['sign']);
  return { certificates: ordered, privateKey };
}

async function p12Bags(
  p12: Uint8Array,
  password: ArrayBuffer,
): Promise<{ keys: pkijs.PrivateKeyInfo[]; certificates: pkijs.Certificate[] }> {
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(p12);
    await pfx.parseInternalValues({ password, checkIntegrity: true });
  } catch (err) {
    throw new SigningIdentityError(
      `cannot open the PKCS#12 file (wrong password or not a PKCS#12): ${(err as Error).message}`,
    );
  }
  const safe = pfx.parsedValue?.authenticatedSafe ?? fail('the PKCS#12 file holds no authenticated safe');
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password })) });
  } catch (err) {
    throw new SigningIdentityError(`cannot decrypt the PKCS#12 contents: ${(err as Error).message}`);
  }
  const keys: pkijs.PrivateKeyInfo[] = [];
  const certificates: pkijs.Certificate[] = [];
  for (const contents of safe.parsedValue.safeContents as { value: pkijs.SafeContents }[]) {
    for (const bag of contents.value.safeBags) {
      if (bag.bagId === OID.keyBag) keys.push(bag.bagValue as pkijs.PrivateKeyInfo);
      if (bag.bagId === OID.shroudedKeyBag) {
        const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
        await (shrouded as unknown as { parseInternalValues(p: { password: ArrayBuffer }): Promise<void> })
          .parseInternalValues({ password })
          .catch((err: Error) => {
            throw new SigningIdentityError(`cannot decrypt the PKCS#12 key: ${err.message}`);
          });
        if (shrouded.parsedValue) keys.push(shrouded.parsedValue);
      }
      if (bag.bagId === OID.certBag) {
        const certBag = bag.bagValue as pkijs.CertBag;
        if (certBag.certId === OID.x509Certificate) certificates.push(certBag.parsedValue as pkijs.Certificate);
      }
    }
  }
  return { keys, certificates };
}

/** The certificates with the one whose public key matches `key` first (none matching: empty). */
function signerFirst(certificates: pkijs.Certificate[], key: pkijs.PrivateKeyInfo): pkijs.Certificate[] {
  const publicOf = publicKeyOf(key);
  const own = certificates.find((c) => Buffer.from(c.subjectPublicKeyInfo.toSchema().toBER()).equals(publicOf));
  if (!own) return [];
  return [own, ...certificates.filter((c) => c !== own)];
}

/** The DER SubjectPublicKeyInfo of a private key (node:crypto derives it for RSA and EC keys alike). */
function publicKeyOf(key: pkijs.PrivateKeyInfo): Buffer {
  const priv = createPrivateKey({ key: Buffer.from(key.toSchema().toBER()), format: 'der', type: 'pkcs8' });
  return createPublicKey(priv).export({ format: 'der', type: 'spki' });
}

/** The WebCrypto signing algorithm of a certificate's key: RSA PKCS#1 v1.5 or ECDSA on a NIST curve. */
function keyAlgorithm(cert: pkijs.Certificate): webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams {
  const alg = cert.subjectPublicKeyInfo.algorithm;
  if (alg.algorithmId === OID.rsaEncryption) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (alg.algorithmId === OID.ecPublicKey) {
    const curve = NAMED_CURVES[(alg.algorithmParams as asn1js.ObjectIdentifier).valueBlock.toString()];
    if (curve) return { name: 'ECDSA', namedCurve: curve };
  }
  return fail(`unsupported key type ${alg.algorithmId} in the PKCS#12 file: use RSA or ECDSA P-256/384/521`);
}

function fail(message: string): never {
  throw new SigningIdentityError(message);
}
