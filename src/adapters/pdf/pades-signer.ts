/**
 * PAdES signatures (ETSI EN 319 142-1) on PDFs this service produces: an incremental update appends a
 * signature field and its `/Sig` dictionary (SubFilter `ETSI.CAdES.detached`), then a detached CMS
 * SignedData over the byte ranges fills `/Contents`. The bytes given are never rewritten: they stay the
 * exact prefix of the result, so any signature they already carry stays valid.
 *
 * Libraries: @cantoo/pdf-lib (a maintained pdf-lib fork) writes the incremental update, also over PDFs with
 * cross-reference streams, which pdf-lib itself cannot append to; @signpdf/signpdf computes `/ByteRange`
 * and places the CMS; PKI.js builds the CMS, its attributes and the RFC 3161 request (docs/attestation.md).
 *
 * Signed attributes: content-type, message-digest (SHA-256) and signing-certificate-v2 (ESS, RFC 5035), as
 * the PAdES baseline B-B requires; no signing-time (PAdES puts the claimed time in the dictionary's `/M`).
 * With a time-stamping authority, the signature-time-stamp unsigned attribute makes it B-T.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFString,
  type PDFRef,
} from '@cantoo/pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { PdfSigner } from '../../app/signature-requests/attestation/pdf-signer.port.js';
import type { HttpClient } from '../../app/shared/http-client.port.js';
import type { SigningIdentity } from './signing-identity.js';
import type { TimestampAuthority } from './tsa-client.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;
/** @signpdf's placeholder for each `/ByteRange` number, replaced in place once the offsets are known. */
const BYTE_RANGE_PLACEHOLDER = '**********';
/** Room in `/Contents` for the CMS beyond its certificates, and for a time-stamp token with its chain. */
const CMS_ROOM = 4096;
const TOKEN_ROOM = 16384;

export interface PadesSignerOptions {
  /** The key and certificates (the service's own, or the operator's PKCS#12), asked once per signature. */
  readonly identity: () => Promise<SigningIdentity>;
  /** With one, signatures are time-stamped (B-T); without, B-B. */
  readonly tsa?: TimestampAuthority;
  /** Milliseconds since the epoch: the `/M` of the signature dictionary. */
  readonly now: () => number;
  /** Shown by PDF readers as the signature's reason. */
  readonly reason?: string;
  /**
   * The guarded client (SSRF guard) that fetches the CRLs the certificates name (CRL distribution points) for
   * the DSS; absent, no revocation data is fetched.
   */
  readonly revocationHttp?: HttpClient;
  /**
   * Adds the signature field to the PDF ({@link withSignatureField} in this thread when absent): the service
   * runs it in a PDF worker, since the PDF may hold a user's document (the signed copy).
   */
  readonly prepare?: PrepareSignatureField;
}

/** The signature dictionary's own entries: `/Type`, `/SubFilter`, and `/M` and `/Reason` when given. */
export interface SignatureFieldSpec {
  readonly type: 'Sig' | 'DocTimeStamp';
  readonly subFilter: string;
  /** Milliseconds since the epoch (`/M`). */
  readonly date?: number;
  readonly reason?: string;
}

/** What goes into the document security store: DER certificates and DER CRLs. */
export interface SignatureDss {
  readonly certs: Uint8Array[];
  readonly crls: Uint8Array[];
}

export type PrepareSignatureField = (
  pdf: Uint8Array,
  spec: SignatureFieldSpec,
  room: number,
  dss: SignatureDss,
) => Promise<Uint8Array>;

export function padesSigner(opts: PadesSignerOptions): PdfSigner {
  return {
    async sign(pdf) {
      const identity = await opts.identity();
      const room = CMS_ROOM + (opts.tsa ? TOKEN_ROOM : 0) + certificatesSize(identity);
      const spec: SignatureFieldSpec = {
        type: 'Sig',
        subFilter: 'ETSI.CAdES.detached',
        date: opts.now(),
        ...(opts.reason !== undefined && { reason: opts.reason }),
      };
      const prepare = opts.prepare ?? withSignatureField;
      const cades = new CadesSigner(identity, opts.tsa);
      let signed = await signField(prepare, pdf, spec, room, cades);
      if (opts.tsa)
        signed = await withDocumentTimestamp(
          prepare,
          signed,
          opts.tsa,
          [...identity.certificates, ...cades.tsaCerts],
          opts.revocationHttp,
        );
      // The updates must only append: a change of one original byte would break the document's own signatures.
      if (!Buffer.from(signed.subarray(0, pdf.length)).equals(Buffer.from(pdf)))
        throw new Error('PAdES signing altered the original bytes');
      return signed;
    },
  };
}

/**
 * With a TSA, the last revision (B-LTA style): the certificates of the signature and of its time-stamp in the
 * document security store (`/DSS /Certs`), so a validator years later needs nothing from us, then a
 * document time-stamp (`/Type /DocTimeStamp`, SubFilter `ETSI.RFC3161`) over the whole file, DSS included.
 */
async function withDocumentTimestamp(
  prepare: PrepareSignatureField,
  pdf: Uint8Array,
  tsa: TimestampAuthority,
  certificates: readonly pkijs.Certificate[],
  revocationHttp: HttpClient | undefined,
): Promise<Uint8Array> {
  const stamp = new (class extends Signer {
    override async sign(signedBytes: Buffer): Promise<Buffer> {
      return Buffer.from(await tsa.timestamp(signedBytes));
    }
  })();
  // Each certificate once (a TSA may send its own twice: as signer and in its chain).
  const ders = new Map(certificates.map((c) => new Uint8Array(c.toSchema().toBER())).map((d) => [hex(d), d]));
  const dss = [...ders.values()];
  const crls = revocationHttp ? await crlsOf(certificates, revocationHttp) : [];
  return signField(prepare, pdf, { type: 'DocTimeStamp', subFilter: 'ETSI.RFC3161' }, TOKEN_ROOM, stamp, {
    certs: dss,
    crls,
  });
}

const CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const MAX_CRL_BYTES = 1024 * 1024;

/**
 * The CRLs the certificates name (B-LT): each http(s) distribution point fetched once through the guarded
 * client, kept when it is a DER CRL of that certificate's issuer. A CA that names none gives none; a point that
 * fails (refused address, error, not a CRL) is left out: the signature does not depend on it.
 */
async function crlsOf(certificates: readonly pkijs.Certificate[], http: HttpClient): Promise<Uint8Array[]> {
  const crls = new Map<string, Uint8Array>();
  for (const cert of certificates) {
    for (const url of crlUrls(cert)) {
      if (crls.has(url)) continue;
      const crl = await fetchCrl(http, url, cert).catch(() => null);
      if (crl !== null) crls.set(url, crl);
    }
  }
  return [...new Map([...crls.values()].map((d) => [hex(d), d])).values()];
}

function crlUrls(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS);
  const points = (ext?.parsedValue as pkijs.CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  return points.flatMap((p) =>
    (Array.isArray(p.distributionPoint) ? p.distributionPoint : [])
      .filter((n) => n.type === 6 && typeof n.value === 'string' && /^https?:\/\//i.test(n.value))
      .map((n) => n.value as string),
  );
}

async function fetchCrl(http: HttpClient, url: string, cert: pkijs.Certificate): Promise<Uint8Array | null> {
  const res = await http.request({ method: 'GET', url, timeoutMs: 15_000, maxResponseBytes: MAX_CRL_BYTES });
  if (res.status !== 200) return null;
  const der = new Uint8Array(res.body);
  const crl = pkijs.CertificateRevocationList.fromBER(der);
  return crl.issuer.isEqual(cert.issuer) ? der : null;
}

/** `pdf` with a signature field whose `/Contents` is what `signer` makes over the byte ranges. */
async function signField(
  prepare: PrepareSignatureField,
  pdf: Uint8Array,
  spec: SignatureFieldSpec,
  room: number,
  signer: Signer,
  dss: SignatureDss = { certs: [], crls: [] },
): Promise<Uint8Array> {
  const prepared = await prepare(pdf, spec, room, dss);
  return new Uint8Array(await new SignPdf().sign(Buffer.from(prepared), signer));
}

function certificatesSize(identity: SigningIdentity): number {
  return identity.certificates.reduce((n, c) => n + c.toSchema().toBER().byteLength, 0);
}

/**
 * `pdf` plus an incremental update: an invisible signature widget on the first page, listed in the
 * AcroForm (SigFlags 3: signatures exist, append only), whose value is the signature dictionary `sig` with
 * placeholders for `/ByteRange` and `/Contents` (`room` bytes); the `dss` certificates (DER) are added to the
 * document security store. Plain data in and out, so that it can run in a PDF worker.
 */
export async function withSignatureField(
  pdf: Uint8Array,
  spec: SignatureFieldSpec,
  room: number,
  dss: SignatureDss,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { forIncrementalUpdate: true, updateMetadata: false });
  const ctx = doc.context;
  const sig = {
    Type: spec.type,
    SubFilter: spec.subFilter,
    ...(spec.date !== undefined && { M: PDFString.fromDate(new Date(spec.date)) }),
    ...(spec.reason !== undefined && { Reason: PDFString.of(spec.reason) }),
  };
  const byteRange = PDFArray.withContext(ctx);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i += 1) byteRange.push(PDFName.of(BYTE_RANGE_PLACEHOLDER));
  const sigRef = ctx.register(
    ctx.obj({
      ...sig,
      Filter: 'Adobe.PPKLite',
      ByteRange: byteRange,
      Contents: PDFHexString.of('0'.repeat(room * 2)),
    } as Parameters<typeof ctx.obj>[0]),
  );
  const page = firstPage(doc);
  const fieldName = freeFieldName(doc);
  const widget = ctx.register(
    ctx.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      V: sigRef,
      T: PDFString.of(fieldName),
      F: 132, // Print | Locked
      P: page.ref,
    }),
  );
  // Not `addAnnot`: it normalises the page first, wrapping its content streams in q/Q (new streams in the update).
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [];
  page.node.set(PDFName.of('Annots'), ctx.obj([...annots, widget]));
  const form = doc.catalog.getOrCreateAcroForm();
  form.addField(widget);
  form.dict.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (dss.certs.length > 0 || dss.crls.length > 0) addToDss(doc, dss);
  return doc.commit({ useObjectStreams: false });
}

/** Appends streams to `/DSS /Certs` and `/DSS /CRLs` (a DSS made here, or the document's own, extended). */
function addToDss(doc: PDFDocument, data: SignatureDss): void {
  const ctx = doc.context;
  const existing = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  const dss = existing ?? ctx.obj({});
  for (const [key, ders] of [
    ['Certs', data.certs],
    ['CRLs', data.crls],
  ] as const) {
    if (ders.length === 0) continue;
    const list = dss.lookupMaybe(PDFName.of(key), PDFArray) ?? ctx.obj([]);
    for (const der of ders) list.push(ctx.register(ctx.stream(der)));
    dss.set(PDFName.of(key), list);
  }
  if (!existing) doc.catalog.set(PDFName.of('DSS'), ctx.register(dss));
}

/** The first page's leaf and reference, read from the page tree (no `PDFPage`, which normalises the page). */
function firstPage(doc: PDFDocument): { ref: PDFRef; node: PDFPageLeaf } {
  let first: { ref: PDFRef; node: PDFPageLeaf } | undefined;
  doc.catalog.Pages().traverse((node, ref) => {
    if (!first && node instanceof PDFPageLeaf) first = { ref, node };
  });
  if (!first) throw new Error('the PDF has no page to carry the signature field');
  return first;
}

/** `SignatureN`, N one more than the form's top-level fields and free among their names (`/T`). */
function freeFieldName(doc: PDFDocument): string {
  const fields = doc.catalog.getAcroForm()?.Fields()?.asArray() ?? [];
  const taken = new Set(
    fields.map((f) => {
      const field = doc.context.lookup(f);
      const name = field instanceof PDFDict ? field.lookup(PDFName.of('T')) : undefined;
      return name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : '';
    }),
  );
  let n = fields.length + 1;
  while (taken.has(`Signature${n}`)) n += 1;
  return `Signature${n}`;
}

/** @signpdf's signer: the CAdES-detached CMS over the bytes outside `/Contents`. */
class CadesSigner extends Signer {
  constructor(
    private readonly identity: SigningIdentity,
    private readonly tsa: TimestampAuthority | undefined,
  ) {
    super();
  }

  /** The certificates the signature's time-stamp token carries (for the DSS). */
  tsaCerts: pkijs.Certificate[] = [];

  override async sign(signedBytes: Buffer): Promise<Buffer> {
    const tsa = this.tsa && {
      timestamp: async (message: Uint8Array) => {
        const token = await this.tsa!.timestamp(message);
        this.tsaCerts = certificatesOf(token);
        return token;
      },
    };
    return Buffer.from(await cadesDetached(this.identity, sha256(signedBytes), tsa));
  }
}

function certificatesOf(token: Uint8Array): pkijs.Certificate[] {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(token).content });
  return (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
}

/** The DER ContentInfo of a detached SignedData over the SHA-256 `digest`, time-stamped when `tsa` is given. */
export async function cadesDetached(
  identity: SigningIdentity,
  digest: Uint8Array,
  tsa?: TimestampAuthority,
): Promise<Uint8Array> {
  const cert = identity.certificates[0]!;
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
        attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: digest })),
        attribute(OID.signingCertificateV2, signingCertificateV2(cert)),
      ],
    }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [...identity.certificates],
  });
  await signedData.sign(identity.privateKey as unknown as CryptoKeyOfPkijs, 0, 'SHA-256');
  if (tsa) {
    const token = await tsa.timestamp(signerInfo.signature.valueBlock.valueHexView);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [attribute(OID.signatureTimeStampToken, asn1js.fromBER(token).result)],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

type CryptoKeyOfPkijs = Parameters<pkijs.SignedData['sign']>[0];

function attribute(type: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with one ESSCertIDv2: the SHA-256
 * of the signer's certificate (the default hash, so no AlgorithmIdentifier) and its issuer and serial.
 */
function signingCertificateV2(cert: pkijs.Certificate): asn1js.Sequence {
  const issuer = new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] });
  const issuerSerial = new asn1js.Sequence({ value: [issuer.toSchema(), cert.serialNumber] });
  const certHash = new asn1js.OctetString({ valueHex: sha256(new Uint8Array(cert.toSchema().toBER())) });
  const essCertIdV2 = new asn1js.Sequence({ value: [certHash, issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function sha256(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(bytes).digest());
}
