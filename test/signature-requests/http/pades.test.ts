// tier: slow (poppler, openssl or qpdf)
/**
 * PAdES on the attestation PDF, checked by tools we did not write: poppler's pdfsig (valid, covers the whole
 * document), `openssl cms -verify` on the CMS taken out over its signed byte ranges, `openssl ts -verify` on
 * the time-stamp token, `qpdf --check`. The TSA is real: `openssl ts -reply` behind a loopback listener
 * (test/support/openssl-tsa.ts). One byte changed in a signed range and both pdfsig and openssl reject.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { lazyPadesSigner } from '../../../src/adapters/pdf/lazy-pades-signer.js';
import { padesSigner } from '../../../src/adapters/pdf/pades-signer.js';
import {
  p12SigningIdentity,
  serviceSigningIdentity,
  SigningIdentityError,
  type SigningIdentity,
} from '../../../src/adapters/pdf/signing-identity.js';
import { rfc3161Client, TimestampError } from '../../../src/adapters/pdf/tsa-client.js';
import { loadConfig } from '../../../src/config.js';
import { DomainError } from '../../../src/core/errors.js';
import { bundleInPdf } from '../../../src/web/browser/pdf-attachment.js';
import { sampleAttestationModel } from '../../support/attestation-model.js';
import { startOpensslTsa, type OpensslTsa } from '../../support/openssl-tsa.js';
import { opensslCmsVerify, opensslTsVerify, signatureAt, tool } from '../../support/pdf-checks.js';

const SECRET = 's'.repeat(40);
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-pades-'));
let seq = 0;

function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}

function certificatePem(identity: SigningIdentity, name: string): string {
  const der = file(`${name}.der`, new Uint8Array(identity.certificates[0]!.toSchema().toBER()));
  const pem = path.join(dir, `${name}.pem`);
  execFileSync('openssl', ['x509', '-inform', 'DER', '-in', der, '-out', pem]);
  return pem;
}

function pdfsig(pdf: Buffer): string {
  return tool('pdfsig', [file('sig.pdf', pdf)]).out;
}

/** `openssl cms -verify` of the `index`th signature (the CAdES one: the first of a freshly signed PDF). */
function cmsVerify(pdf: Buffer, caFile: string, index = 0): { status: number | null; out: string } {
  const { cms, signed } = signatureAt(pdf, index);
  return opensslCmsVerify(file('cms.der', cms), file('signed.bin', signed), caFile);
}

/** The signature-time-stamp token (unsigned attribute) of a CMS, and the signature value it stamps. */
function timestampOf(cms: Buffer): { token: Buffer; signatureValue: Buffer } {
  const info = pkijs.ContentInfo.fromBER(cms);
  const signer = new pkijs.SignedData({ schema: info.content }).signerInfos[0]!;
  const attr = signer.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
  assert.ok(attr, 'a signature-time-stamp attribute');
  return {
    token: Buffer.from(attr.values[0]!.toBER()),
    signatureValue: Buffer.from(signer.signature.valueBlock.valueHexView),
  };
}

/** A port nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/tsa`;
}

describe('PAdES signatures on the attestation PDF', () => {
  let tsa: OpensslTsa;
  let attestation: Buffer;
  let identity: SigningIdentity;
  let certFile: string;
  const operatorHttp = createSafeFetch({ allowPrivateUrls: true });
  const bundle = JSON.stringify({ signatureReceipts: [], complete: true });
  const sign = (pdf: Uint8Array, withTsa: boolean) =>
    padesSigner({
      identity: async () => identity,
      now: Date.now,
      ...(withTsa && { tsa: rfc3161Client(operatorHttp, [tsa.url]) }),
    }).sign(pdf);

  before(async () => {
    tsa = await startOpensslTsa();
    attestation = Buffer.from(await pdfAttestationRenderer().render(sampleAttestationModel(bundle)));
    identity = await serviceSigningIdentity(SECRET, 'proofseal test');
    certFile = certificatePem(identity, 'service');
  });
  after(async () => {
    await tsa?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('B-B by default: pdfsig and openssl verify it, it covers the whole file, the original bytes are untouched', async () => {
    const signed = Buffer.from(await sign(attestation, false));
    assert.ok(signed.subarray(0, attestation.length).equals(attestation), 'an incremental update');
    const report = pdfsig(signed);
    assert.match(report, /Signature Validation: Signature is Valid\./);
    assert.match(report, /Signature Type: ETSI\.CAdES\.detached/);
    assert.match(report, /Signing Hash Algorithm: SHA-256/);
    assert.match(report, /Signer Certificate Common Name: proofseal test/);
    assert.match(report, /Total document signed/);
    const verified = cmsVerify(signed, certFile);
    assert.equal(verified.status, 0, verified.out);
    assert.match(verified.out, /CMS Verification successful/);
    const qpdf = tool('qpdf', ['--check', file('signed.pdf', signed)]);
    assert.equal(qpdf.status, 0, qpdf.out);
    assert.match(qpdf.out, /No syntax or stream encoding errors found/);
    // The proof bundle the attestation carries still comes out.
    const out = path.join(dir, `detach-${(seq += 1)}`);
    mkdirSync(out);
    execFileSync('pdfdetach', ['-saveall', '-o', out, file('signed.pdf', signed)]);
    assert.equal(readdirSync(out).length, 1);
    // And the verification page's reader (pdf-lib, in the browser) still finds it after the update.
    assert.deepEqual(await bundleInPdf(signed), JSON.parse(bundle));
  });

  it('the update changes no page content: only /Annots of page 1 differs, as qpdf shows both revisions', async () => {
    const signed = Buffer.from(await sign(attestation, false));
    const before = file('before.pdf', attestation);
    const after = file('after.pdf', signed);
    const pageRef = /page 1: (\d+) 0 R/.exec(tool('qpdf', ['--show-pages', before]).out)![1]!;
    const page = (f: string) =>
      tool('qpdf', [`--show-object=${pageRef}`, f]).out.replace(/\/Annots \[[^\]]*\]/, '/Annots []');
    assert.match(tool('qpdf', [`--show-object=${pageRef}`, after]).out, /\/Annots \[ \d+ 0 R \]/);
    assert.equal(page(after), page(before));
    const update = signed.subarray(attestation.length).toString('latin1');
    assert.doesNotMatch(update, /\bstream\r?\n/, 'no content stream is added');
  });

  it('signs content-type, message-digest and signing-certificate-v2 (our certificate), no signing-time', async () => {
    const signed = Buffer.from(await sign(attestation, false));
    const { cms } = signatureAt(signed, 0);
    const printed = tool('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file('cms.der', cms)]).out;
    assert.match(printed, /object: contentType \(1\.2\.840\.113549\.1\.9\.3\)/);
    assert.match(printed, /object: messageDigest \(1\.2\.840\.113549\.1\.9\.4\)/);
    assert.match(printed, /signingCertificateV2 \(1\.2\.840\.113549\.1\.9\.16\.2\.47\)/);
    assert.doesNotMatch(printed, /signingTime/);
    const certHash = createHash('sha256').update(new Uint8Array(identity.certificates[0]!.toSchema().toBER())).digest();
    assert.ok(cms.includes(certHash), 'signing-certificate-v2 holds the SHA-256 of the signer certificate');
  });

  it('B-T with a TSA: the token verifies with openssl ts -verify over the signature value', async () => {
    const before = tsa.answered();
    const signed = Buffer.from(await sign(attestation, true));
    assert.equal(tsa.answered(), before + 2, 'the signature time-stamp, then the document time-stamp');
    assert.match(pdfsig(signed), /Signature #1:[\s\S]*Signature is Valid\./);
    assert.equal(cmsVerify(signed, certFile).status, 0);
    const { token, signatureValue } = timestampOf(signatureAt(signed, 0).cms);
    const digest = createHash('sha256').update(signatureValue).digest('hex');
    const args = ['ts', '-verify', '-digest', digest, '-in', file('token.der', token), '-token_in'];
    const verified = tool('openssl', [...args, '-CAfile', tsa.caFile, '-untrusted', tsa.tsaCertFile]);
    assert.equal(verified.status, 0, verified.out);
    assert.match(verified.out, /Verification: OK/);
    const other = createHash('sha256').update('another signature').digest('hex');
    const wrong = tool('openssl', [
      'ts',
      '-verify',
      '-digest',
      other,
      '-in',
      file('token.der', token),
      '-token_in',
      '-CAfile',
      tsa.caFile,
    ]);
    assert.notEqual(wrong.status, 0, 'the token is bound to this signature value');
  });

  it('with a TSA, a last revision: the certificates in the DSS and a document time-stamp over the whole file', async () => {
    const signed = Buffer.from(await sign(attestation, true));
    const report = pdfsig(signed);
    assert.match(
      report,
      /Signature #1:[\s\S]*Not total document signed[\s\S]*Signature #2:[\s\S]*Total document signed/,
    );
    assert.match(report, /Signature #2:[\s\S]*Signer Certificate Common Name: Test TSA/);
    const docTs = signatureAt(signed, -1);
    assert.equal(docTs.range[2]! + docTs.range[3]!, signed.length, 'it covers the file to its last byte');
    const verified = opensslTsVerify(file('ranges.bin', docTs.signed), file('dts.der', docTs.cms), tsa);
    assert.equal(verified.status, 0, verified.out);
    assert.match(verified.out, /Verification: OK/);
    const text = signed.toString('latin1');
    assert.match(text, /\/Type \/DocTimeStamp/);
    assert.match(text, /\/SubFilter \/ETSI\.RFC3161/);
    // The DSS, read with pdf-lib: our certificate and the TSA's, DER as they are.
    const doc = await PDFDocument.load(signed, { updateMetadata: false });
    const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
    const certs = dss
      .lookup(PDFName.of('Certs'), PDFArray)
      .asArray()
      .map((ref) => {
        const stream = doc.context.lookup(ref);
        assert.ok(stream instanceof PDFRawStream);
        return Buffer.from(stream.contents);
      });
    const tsaDer = execFileSync('openssl', ['x509', '-in', tsa.tsaCertFile, '-outform', 'DER']);
    assert.deepEqual(certs, [Buffer.from(identity.certificates[0]!.toSchema().toBER()), tsaDer]);
    assert.equal(tool('qpdf', ['--check', file('lta.pdf', signed)]).status, 0);
  });

  it('several TSAs: a dead one is skipped for the next; none answering is NOT_READY and nothing is signed', async () => {
    const dead = await deadUrl();
    const fallback = padesSigner({
      identity: async () => identity,
      now: Date.now,
      tsa: rfc3161Client(operatorHttp, [dead, tsa.url]),
    });
    const signed = Buffer.from(await fallback.sign(attestation));
    assert.ok(timestampOf(signatureAt(signed, 0).cms).token.length > 0);
    await assert.rejects(rfc3161Client(operatorHttp, [dead]).timestamp(new Uint8Array(32)), TimestampError);
    const settings = {
      secretKey: SECRET,
      serviceName: 'proofseal test',
      tsaUrls: [dead],
      tsaHttp: operatorHttp,
      now: Date.now,
    };
    await assert.rejects(lazyPadesSigner(settings).sign(attestation), (err: unknown) => {
      assert.ok(err instanceof DomainError && err.code === 'NOT_READY', String(err));
      assert.doesNotMatch(err.message, /127\.0\.0\.1/, 'the operator URL stays out of the answer');
      return true;
    });
  });

  it('the TSA URL is an operator setting: its client may reach the loopback, the guarded one for user URLs may not', async () => {
    const guarded = createSafeFetch({ allowPrivateUrls: false });
    await assert.rejects(rfc3161Client(guarded, [tsa.url]).timestamp(new Uint8Array(32)), /not public/);
    assert.equal((await rfc3161Client(operatorHttp, [tsa.url]).timestamp(new Uint8Array(32)))[0], 0x30);
  });

  it('one byte changed in a signed range: pdfsig and openssl cms both reject', async () => {
    const signed = Buffer.from(await sign(attestation, true));
    const tampered = Buffer.from(signed);
    const at = Math.floor(attestation.length / 2);
    tampered[at] = tampered[at]! ^ 0x01;
    assert.match(pdfsig(tampered), /Signature Validation: Digest Mismatch\./);
    const verified = cmsVerify(tampered, certFile);
    assert.notEqual(verified.status, 0);
    assert.match(verified.out, /digest failure|content verify error/);
    const docTs = signatureAt(tampered, -1);
    const stamped = opensslTsVerify(file('ranges.bin', docTs.signed), file('dts.der', docTs.cms), tsa);
    assert.notEqual(stamped.status, 0, 'the document time-stamp rejects it too');
    assert.match(stamped.out, /message imprint mismatch/);
  });

  it('signing a signed PDF again keeps the first signature valid (xref-stream PDFs too)', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('already signed');
    const plain = Buffer.from(await doc.save({ useObjectStreams: true }));
    const once = Buffer.from(await sign(plain, false));
    const twice = Buffer.from(await sign(once, true));
    assert.ok(twice.subarray(0, once.length).equals(once));
    const report = pdfsig(twice);
    assert.equal(report.match(/Signature is Valid\./g)?.length, 2, report);
    assert.match(report, /Signature #1:[\s\S]*Signature Field Name: Signature1[\s\S]*Signature #2:[\s\S]*Signature2/);
    assert.equal(report.match(/Total document signed/g)?.length, 1, 'only the last one covers the whole file');
    assert.equal(tool('qpdf', ['--check', file('twice.pdf', twice)]).status, 0);
  });

  it('the default run (no PKCS#12, no TSA): the lazy signer signs B-B with the certificate under SECRET_KEY', async () => {
    const settings = {
      secretKey: SECRET,
      serviceName: 'proofseal test',
      tsaUrls: [],
      tsaHttp: operatorHttp,
      now: Date.now,
    };
    const signed = Buffer.from(await lazyPadesSigner(settings).sign(attestation));
    const report = pdfsig(signed);
    assert.match(report, /Signature is Valid\./);
    assert.match(report, /Total document signed/);
    assert.equal(report.match(/Signature #/g)?.length, 1, 'B-B: no document time-stamp without a TSA');
    assert.equal(cmsVerify(signed, certFile).status, 0, 'signed by the same certificate as serviceSigningIdentity');
  });

  it("the new field's name is free: a form that already has a Signature2 text field gets Signature3", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    doc.getForm().createTextField('Signature2').addToPage(page);
    const signed = Buffer.from(await sign(await doc.save(), false));
    const report = pdfsig(signed);
    assert.match(report, /Signature Field Name: Signature3/);
    assert.match(report, /Signature is Valid\./);
  });

  it("the service's certificate: P-256, subject the service name, self-signed, the same bytes from the same SECRET_KEY", async () => {
    const again = await serviceSigningIdentity(SECRET, 'proofseal test');
    const der = (i: SigningIdentity) => Buffer.from(i.certificates[0]!.toSchema().toBER());
    assert.ok(der(again).equals(der(identity)), 'deterministic: every process rebuilds the same certificate');
    const other = await serviceSigningIdentity('t'.repeat(40), 'proofseal test');
    assert.notEqual(
      Buffer.from(other.certificates[0]!.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).toString('hex'),
      Buffer.from(identity.certificates[0]!.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).toString(
        'hex',
      ),
    );
    const text = tool('openssl', ['x509', '-in', certFile, '-noout', '-text']).out;
    assert.match(text, /Subject: CN = proofseal test/);
    assert.match(text, /NIST CURVE: P-256/);
    assert.match(text, /Digital Signature, Non Repudiation/);
    const selfSigned = tool('openssl', ['verify', '-CAfile', certFile, certFile]);
    assert.equal(selfSigned.status, 0, selfSigned.out);
  });

  it("an operator's PKCS#12 (RSA, OpenSSL 3 defaults) signs with its certificate; a wrong password is refused", async () => {
    const key = path.join(dir, 'op.key');
    const pem = path.join(dir, 'op.pem');
    const p12 = path.join(dir, 'op.p12');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        pem,
        '-subj',
        '/CN=Operator Signing/O=Example',
        '-days',
        '2',
      ],
      { stdio: 'pipe' },
    );
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', key, '-in', pem, '-out', p12, '-passout', 'pass:s3cret'], {
      stdio: 'pipe',
    });
    const operator = await p12SigningIdentity(readFileSync(p12), 's3cret');
    const signed = Buffer.from(await padesSigner({ identity: async () => operator, now: Date.now }).sign(attestation));
    const report = pdfsig(signed);
    assert.match(report, /Signer Certificate Common Name: Operator Signing/);
    assert.match(report, /Signature is Valid\./);
    assert.equal(cmsVerify(signed, pem).status, 0);
    await assert.rejects(p12SigningIdentity(readFileSync(p12), 'wrong'), SigningIdentityError);
    const settings = {
      secretKey: SECRET,
      serviceName: 'x',
      p12Path: p12,
      p12Password: 'wrong',
      tsaUrls: [],
      tsaHttp: operatorHttp,
      now: Date.now,
    };
    await assert.rejects(
      lazyPadesSigner(settings).sign(attestation),
      (err: unknown) => err instanceof DomainError && err.code === 'NOT_READY',
    );
  });

  it('settings: TSA_URLS is a comma list kept in order; a non-http(s) URL or one with credentials stops the start', () => {
    assert.deepEqual(loadConfig({}).tsaUrls, []);
    const urls = 'https://tsa.example.com/tsr, http://10.0.0.5:318/';
    assert.deepEqual(loadConfig({ TSA_URLS: urls }).tsaUrls, ['https://tsa.example.com/tsr', 'http://10.0.0.5:318/']);
    assert.throws(() => loadConfig({ TSA_URLS: 'ftp://tsa.example.com' }), /TSA_URLS must be http\(s\) URLs/);
    assert.throws(
      () => loadConfig({ TSA_URLS: 'https://u:secret@tsa.example.com' }),
      (err: Error) => {
        assert.match(err.message, /TSA_URLS/);
        assert.doesNotMatch(err.message, /secret/, 'the password is not printed');
        return true;
      },
    );
    assert.throws(() => loadConfig({ PDF_SIGNING_P12_PASSWORD: 'x' }), /without PDF_SIGNING_P12/);
    const p12 = loadConfig({ PDF_SIGNING_P12: '/etc/proofseal/sign.p12', PDF_SIGNING_P12_PASSWORD: 'pw' });
    assert.equal(p12.pdfSigningP12, '/etc/proofseal/sign.p12');
  });
});
