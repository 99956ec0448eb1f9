// tier: slow (poppler and openssl)
/**
 * B-LT revocation data: an operator's certificate from a CA made here by openssl names a CRL distribution point
 * on a loopback listener; signing with a TSA puts that CRL, fetched through the SSRF guard, in `/DSS /CRLs`. The
 * CRL taken out of the PDF is the one the CA issued, and `openssl verify -crl_check` accepts the certificate with
 * it. Through the guard as users' URLs go (no private address), the loopback is refused: no CRL, still signed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { padesSigner } from '../../../src/adapters/pdf/pades-signer.js';
import { p12SigningIdentity, type SigningIdentity } from '../../../src/adapters/pdf/signing-identity.js';
import { rfc3161Client } from '../../../src/adapters/pdf/tsa-client.js';
import { issueCertificate, makeCa, openssl as opensslIn } from '../../support/openssl-ca.js';
import { startOpensslTsa, type OpensslTsa } from '../../support/openssl-tsa.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-crl-'));
const at = (name: string) => path.join(dir, name);
const openssl = (args: string[]) => opensslIn(dir, args);

/** The CRLs in the PDF's document security store, as stored. */
async function dssCrls(pdf: Uint8Array): Promise<Buffer[]> {
  const doc = await PDFDocument.load(pdf);
  const dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  const crls = dss?.lookupMaybe(PDFName.of('CRLs'), PDFArray);
  return (crls?.asArray() ?? []).map((ref) => Buffer.from((doc.context.lookup(ref) as PDFRawStream).contents));
}

describe('CRLs in the document security store (B-LT)', () => {
  let server: http.Server;
  let crl: Buffer;
  let fetched = 0;
  let tsa: OpensslTsa;
  let identity: SigningIdentity;
  let pdf: Uint8Array;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url !== '/ca.crl') return void res.writeHead(404).end();
      fetched += 1;
      res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    makeCa(dir, { name: 'ca', subject: '/CN=Operator CA', keyUsage: 'keyCertSign,cRLSign' });
    issueCertificate(dir, {
      name: 'sign',
      subject: '/CN=Operator Signing/O=Example',
      ca: 'ca',
      extensions: [
        'keyUsage=critical,digitalSignature,nonRepudiation',
        `crlDistributionPoints=URI:http://127.0.0.1:${port}/ca.crl`,
      ],
    });
    writeFileSync(at('index.txt'), '');
    writeFileSync(at('crlnumber'), '01\n');
    writeFileSync(
      at('ca.cnf'),
      `[ ca ]\ndefault_ca = CA_default\n[ CA_default ]\ndatabase = ${at('index.txt')}\ncrlnumber = ${at('crlnumber')}\ndefault_md = sha256\ndefault_crl_days = 2\n`,
    );
    openssl(['ca', '-config', 'ca.cnf', '-gencrl', '-keyfile', 'ca.key', '-cert', 'ca.pem', '-out', 'ca.crl.pem']);
    openssl(['crl', '-in', 'ca.crl.pem', '-outform', 'DER', '-out', 'ca.crl']);
    crl = readFileSync(at('ca.crl'));
    openssl([
      'pkcs12',
      '-export',
      '-inkey',
      'sign.key',
      '-in',
      'sign.pem',
      '-certfile',
      'ca.pem',
      '-out',
      'sign.p12',
      '-passout',
      'pass:s3cret',
    ]);
    identity = await p12SigningIdentity(readFileSync(at('sign.p12')), 's3cret');
    tsa = await startOpensslTsa();
    const page = await PDFDocument.create();
    page.addPage().drawText('revocation data test');
    pdf = await page.save();
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await tsa.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signerWith = (allowPrivateUrls: boolean) =>
    padesSigner({
      identity: async () => identity,
      tsa: rfc3161Client(createSafeFetch({ allowPrivateUrls: true }), [tsa.url]),
      revocationHttp: createSafeFetch({ allowPrivateUrls }),
      now: Date.now,
    });

  it('the CRL of the signing certificate is in /DSS /CRLs, as the CA issued it, and validates the certificate', async () => {
    const signed = await signerWith(true).sign(pdf);
    const crls = await dssCrls(signed);
    assert.equal(fetched, 1, 'fetched once');
    assert.deepEqual(crls, [crl], 'the CRL the CA issued, byte for byte');
    writeFileSync(at('from-pdf.crl'), crls[0]!);
    openssl(['crl', '-inform', 'DER', '-in', 'from-pdf.crl', '-out', 'from-pdf.crl.pem']);
    assert.match(openssl(['crl', '-in', 'from-pdf.crl.pem', '-noout', '-issuer']), /CN ?= ?Operator CA/);
    const check = spawnSync(
      'openssl',
      ['verify', '-crl_check', '-CAfile', at('ca.pem'), '-CRLfile', at('from-pdf.crl.pem'), at('sign.pem')],
      { encoding: 'utf8' },
    );
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout, /sign\.pem: OK/);
    writeFileSync(at('signed.pdf'), signed);
    const report = spawnSync('pdfsig', [at('signed.pdf')], { encoding: 'utf8' }).stdout;
    assert.match(
      report,
      /Signature #1:[\s\S]*Signer Certificate Common Name: Operator Signing[\s\S]*Signature is Valid\./,
    );
    assert.match(report, /Signature #2:[\s\S]*Total document signed/);
  });

  it('through the guard as for users’ URLs, the loopback CRL is refused: no revocation data, still signed', async () => {
    const before = fetched;
    const signed = await signerWith(false).sign(pdf);
    assert.equal(fetched, before, 'never reached');
    assert.deepEqual(await dssCrls(signed), []);
    writeFileSync(at('signed-guarded.pdf'), signed);
    assert.match(spawnSync('pdfsig', [at('signed-guarded.pdf')], { encoding: 'utf8' }).stdout, /Signature is Valid\./);
  });
});
