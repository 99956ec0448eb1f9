// tier: slow (qpdf for the signed copy made here)
/**
 * `proofseal verify <signed-copy.pdf>` alone: a real signed copy (the original PDF, our incremental update with
 * the attestation's pages and the attached bundle, then the PAdES signature: the assembler and signer the
 * service uses) of a bundle with real signatures and Merkle paths on synthetic blocks (test/support). The
 * original is found inside it, the bundle read from its attachment, and every check of
 * `proofseal verify <document> <bundle>` made, against an Esplora API and a node's JSON-RPC answered by a local
 * server. One byte of the original changed inside the copy: not verified, with the reason.
 *
 * Then the bundle's RFC 3161 tokens (`rfc3161Timestamps`), made by a real authority (`openssl ts -reply` on the
 * loopback): `proofseal verify` checks each itself (imprint, signature with the certificate inside, time and
 * subject printed) and agrees with `openssl ts -verify` on sound and tampered tokens.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { rfc3161Client } from '../../../src/adapters/pdf/tsa-client.js';
import { padesSigner } from '../../../src/adapters/pdf/pades-signer.js';
import { pdfSignedCopyAssembler } from '../../../src/adapters/pdf/signed-copy-assembler.js';
import { serviceSigningIdentity } from '../../../src/adapters/pdf/signing-identity.js';
import { runVerify } from '../../support/client-context.js';
import { startOpensslTsa, type OpensslTsa } from '../../support/openssl-tsa.js';
import { opensslCmsVerify, opensslTsVerify, signatureAt, tool } from '../../support/pdf-checks.js';
import { proofBundle, type BundleFixture } from '../../support/proof-bundle-fixture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-verify-copy-'));
let seq = 0;
function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}

/** The synthetic chain the fixtures' blocks are in: height → block hash, tip 5 above the highest. */
const chain = new Map<number, string>();
const tip = () => Math.max(0, ...chain.keys()) + 5;
// An Esplora API (GET) and a node's JSON-RPC (POST) over that chain.
const server = http.createServer((req, res) => {
  if (req.method === 'POST') {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: number[] };
      const hash = chain.get(params[0]!);
      const answer =
        method === 'getblockcount'
          ? { result: tip(), error: null, id }
          : hash !== undefined
            ? { result: hash, error: null, id }
            : { result: null, error: { code: -8, message: 'Block height out of range' }, id };
      res.setHeader('content-type', 'application/json').end(JSON.stringify(answer));
    });
    return;
  }
  const height = /^\/api\/block-height\/(\d+)$/.exec(req.url ?? '')?.[1];
  if (req.url === '/api/blocks/tip/height') return void res.end(String(tip()));
  const hash = height === undefined ? undefined : chain.get(Number(height));
  if (hash === undefined) return void res.writeHead(404).end('Block not found');
  res.end(hash);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 60, y: 760, font, size: 16 });
  return doc.save();
}

/** `proofseal verify …` as a user runs it (test/support/client-context.ts). */
const verify = (args: string[]) => runVerify(dir, args);

/** The signed copy of `original` carrying `bundle`, made as the service makes it. */
export async function signedCopyOf(original: Uint8Array, bundle: unknown): Promise<Buffer> {
  const attestation = await onePagePdf('Attestation (test)');
  const update = await pdfSignedCopyAssembler().assemble(original, attestation, {
    bytes: new TextEncoder().encode(JSON.stringify(bundle)),
    fileName: 'proof-bundle-test.json',
    date: Date.now(),
  });
  const identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
  return Buffer.from(await padesSigner({ identity: async () => identity, now: Date.now }).sign(update));
}

describe('proofseal verify <signed-copy.pdf>, the one file', () => {
  let original: Uint8Array;
  let fx: BundleFixture;
  let copy: Buffer;

  before(async () => {
    original = await onePagePdf(`Lease of flat 4B, ${new Date().toISOString()}`);
    fx = proofBundle(Buffer.from(original), [{ name: 'Ann Lee', email: 'ann@example.com' }]);
    copy = await signedCopyOf(original, fx.bundle);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
  });

  it('is a real signed copy: qpdf reads it, the original is its exact prefix', () => {
    assert.ok(copy.subarray(0, original.length).equals(Buffer.from(original)));
    assert.ok(copy.length > original.length + 1000);
    const qpdf = spawnSync('qpdf', ['--check', file('copy.pdf', copy)], { encoding: 'utf8' });
    assert.equal(qpdf.status, 0, qpdf.stdout + qpdf.stderr);
  });

  it('finds the original and the attached bundle, then makes every check of the bundle mode', async (t) => {
    const copyFile = file('lease-signed.pdf', copy);
    const sha = createHash('sha256').update(original).digest('hex');
    const { code, out } = await verify([copyFile, '--explorer', `${base}/api`]);
    t.diagnostic(out);
    assert.equal(code, 0, out);
    assert.ok(
      out.includes(
        `signed copy:\n  ✓ its first ${original.length} of ${copy.length} bytes, a revision ending at %%EOF, are the original: SHA-256 ${sha}`,
      ),
      out,
    );
    assert.ok(out.includes(`✓ the document's SHA-256 ${sha} is the hash the receipt proves`), out);
    assert.match(out, /audit trail:\n {2}✓ auditTrailData hashes to [0-9a-f]{64}, the hash the receipt proves/);
    assert.match(out, /✓ transaction [0-9a-f]{64} carries the root in OP_RETURN/);
    for (const e of fx.bundle.bitcoinSpv)
      assert.ok(out.includes(`relied on block ${e.blockHash} at height ${e.blockHeight}`), out);
    assert.match(
      out,
      /VERIFIED: .*lease-signed\.pdf \(its original revision; the copy signed by CN=proofseal\) and its 2 receipts, proven by 2 Bitcoin transactions no later than [0-9T:.-]+Z \(block \d+, the latest they need\); no proofseal server was asked/,
    );
    // "No later than" names the latest block of those the request needs, with that block's time.
    const latest = fx.bundle.bitcoinSpv.reduce((m, e) => (e.blockHeight > m.blockHeight ? e : m));
    const latestTime = new Date(Buffer.from(latest.blockHeader, 'hex').readUInt32LE(68) * 1000).toISOString();
    assert.ok(out.includes(`no later than ${latestTime} (block ${latest.blockHeight}, the latest they need)`), out);
    assert.match(out, /✓ signature 1 by CN=proofseal holds: the SHA-256 of its byte ranges/);
    assert.ok(out.includes(`✓ signature 1 by CN=proofseal covers the whole file (${copy.length} bytes)`), out);

    const viaNode = await verify([copyFile, '--rpc-url', `http://user:secret@${base.slice(7)}/`]);
    assert.equal(viaNode.code, 0, viaNode.out);
    assert.match(viaNode.out, /header source: the Bitcoin node at http:\/\/127\.0\.0\.1:\d+\//);
    assert.doesNotMatch(viaNode.out, /secret/);

    const json = await verify([copyFile, '--explorer', `${base}/api`, '--json']);
    const parsed = JSON.parse(json.out) as { verdict: string; hash: string; items: { what: string }[] };
    assert.equal(parsed.verdict, 'VERIFIED');
    assert.equal(parsed.hash, sha);
    assert.equal(parsed.items[0]!.what, 'signed copy');

    assert.equal((await verify([copyFile])).code, 2, 'a bundle needs a header source');
  });

  it('the same copy as the second file of a pair, and the first file alone when it carries no bundle', async () => {
    const docFile = file('lease.pdf', original);
    const pair = await verify([docFile, file('lease-signed.pdf', copy), '--explorer', `${base}/api`]);
    assert.equal(pair.code, 0, pair.out);
    assert.doesNotMatch(pair.out, /signed copy:/);
    // The original alone carries no bundle: it is a sealed file without its receipt, as before.
    const alone = await verify([docFile, '--explorer', `${base}/api`]);
    assert.equal(alone.code, 2);
    assert.match(
      alone.out,
      /lease\.pdf carries no proof bundle \(it is not a signed copy\) and there is no .*lease\.pdf\.receipt\.json/,
    );
  });

  it('one byte of the original changed inside the copy: no revision has the hash, not verified', async () => {
    const at = Math.floor(original.length / 2);
    const tampered = Buffer.from(copy);
    tampered[at] ^= 0x01;
    const { code, out } = await verify([file('tampered-signed.pdf', tampered), '--explorer', `${base}/api`]);
    assert.equal(code, 1, out);
    const hashes = fx.bundle.auditTrailData as { auditContext: { hashToSign: string } };
    assert.ok(
      out.includes(
        `NOT VERIFIED: signed copy: the original part was changed: no revision of it (a prefix ending at %%EOF) hashes to the document the attached bundle names (${hashes.auditContext.hashToSign})`,
      ),
      out,
    );
    assert.match(out, /✗ the document's SHA-256 [0-9a-f]{64} is not the hash the receipt proves/);
  });
});

describe("proofseal verify checks the bundle's RFC 3161 tokens itself, as openssl ts -verify does", () => {
  let tsa: OpensslTsa;
  let fx: BundleFixture;
  let docFile: string;
  type Stamp = { merkleRoot: string; token: string };
  let stamps: Stamp[];

  const opensslVerify = (s: Stamp) =>
    opensslTsVerify(
      file('root.bin', Buffer.from(s.merkleRoot, 'hex')),
      file('token.der', Buffer.from(s.token, 'base64')),
      tsa,
    );
  const withStamps = (list: Stamp[]) => file('bundle.json', JSON.stringify({ ...fx.bundle, rfc3161Timestamps: list }));
  const flip = (s: Stamp, at: (der: Buffer) => number): Stamp => {
    const der = Buffer.from(s.token, 'base64');
    der[at(der)] ^= 0x01;
    return { ...s, token: der.toString('base64') };
  };

  before(async () => {
    tsa = await startOpensslTsa();
    const content = Buffer.from(`contract ${Date.now()}\n`);
    docFile = file('contract.txt', content);
    fx = proofBundle(content, [{ name: 'Ann Lee', email: 'ann@example.com' }]);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    const authority = rfc3161Client(createSafeFetch({ allowPrivateUrls: true }), [tsa.url]);
    const roots = [...fx.bundle.signatureReceipts, fx.bundle.auditTrailReceipt].map((r) => r.merkleRoot);
    stamps = [];
    for (const root of roots) {
      const token = await authority.timestamp(Buffer.from(root, 'hex'));
      stamps.push({ merkleRoot: root, token: Buffer.from(token).toString('base64') });
    }
  });
  after(() => tsa?.close());

  it('sound tokens: imprint, signature, time and authority, as openssl reads them', async (t) => {
    const { code, out } = await verify([docFile, withStamps(stamps), '--explorer', `${base}/api`]);
    t.diagnostic(out);
    assert.equal(code, 0, out);
    for (const [i, s] of stamps.entries()) {
      assert.equal(opensslVerify(s).out.includes('Verification: OK'), true, 'openssl agrees');
      const text = tool('openssl', [
        'ts',
        '-reply',
        '-in',
        file('t.der', Buffer.from(s.token, 'base64')),
        '-token_in',
        '-text',
        '-token_out',
      ]).out;
      const genTime = new Date(/Time stamp: (.+)/.exec(text)![1]!.trim()).toISOString();
      const imprint = createHash('sha256').update(Buffer.from(s.merkleRoot, 'hex')).digest('hex');
      assert.ok(
        out.includes(
          `time stamp ${i + 1}:\n  ✓ it stamps root ${s.merkleRoot}, the Merkle root of the bundle's receipts`,
        ),
        out,
      );
      assert.ok(out.includes(`✓ its message imprint is SHA-256 of the root's 32 bytes, ${imprint}`), out);
      assert.match(
        out,
        new RegExp(
          `✓ the authority CN=Test TSA \\(issued by CN=Test TSA CA\\) signed it at ${genTime.replace(/\.000Z$/, '')}\\.\\d{3}Z \\(serial [0-9a-f]+\\)`,
        ),
      );
      assert.ok(out.includes(`time-stamped: root ${s.merkleRoot} existed at ${genTime.replace(/\.000Z$/, '')}`), out);
    }
    assert.match(out, /VERIFIED: .* and by 2 RFC 3161 time stamp\(s\); no proofseal server was asked/);
  });

  it('a signed copy made with a TSA: the signature and the document time-stamp over the whole file, as pdfsig reads them', async () => {
    const original = await onePagePdf('Signed with a time-stamping authority');
    const bundle = proofBundle(Buffer.from(original), [{ name: 'Di Oz', email: 'di@example.com' }]).bundle;
    for (const e of bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    const update = await pdfSignedCopyAssembler().assemble(original, await onePagePdf('Attestation (test)'), {
      bytes: new TextEncoder().encode(JSON.stringify(bundle)),
      fileName: 'proof-bundle-test.json',
      date: Date.now(),
    });
    const identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
    const authority = rfc3161Client(createSafeFetch({ allowPrivateUrls: true }), [tsa.url]);
    const copy = await padesSigner({ identity: async () => identity, now: Date.now, tsa: authority }).sign(update);
    const { code, out } = await verify([file('lta-signed.pdf', copy), '--explorer', `${base}/api`]);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash); // this suite's blocks again
    assert.equal(code, 0, out.split('\n').at(-1));
    assert.match(out, /✓ signature 1 by CN=proofseal holds/);
    assert.match(out, /✓ document time-stamp 2 by CN=Test TSA at [0-9T:.-]+Z holds/);
    assert.ok(out.includes(`✓ signature 2 by CN=Test TSA covers the whole file (${copy.length} bytes)`), out);
    // pdfsig checks the CMS signature and cannot validate a document time-stamp; openssl ts -verify does.
    const sig = tool('pdfsig', [file('lta.pdf', copy)]).out;
    assert.match(sig, /Signature #1:[^]*Signature is Valid\.[^]*Signature #2:[^]*Total document signed/, sig);
    const docStamp = (pdf: Uint8Array) => {
      const { cms, signed } = signatureAt(Buffer.from(pdf), -1);
      return opensslTsVerify(file('signed.bin', signed), file('doc-ts.der', cms), tsa).out;
    };
    assert.match(docStamp(copy), /Verification: OK/);

    const tampered = Buffer.from(copy);
    const dss = tampered.indexOf('/DSS');
    assert.ok(dss > 0, 'the last revision carries a DSS');
    tampered[dss + 2] = 0x58; // /DXS: a byte only the document time-stamp covers
    for (const e of bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    const bad = await verify([file('lta-tampered-signed.pdf', tampered), '--explorer', `${base}/api`]);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    assert.equal(bad.code, 1, bad.out);
    assert.match(
      bad.out,
      /NOT VERIFIED: signed copy: a later revision \(bytes \d+ to \d+, after the signature that still holds\) was changed: signature 2 by CN=Test TSA no longer matches \(the token stamps [0-9a-f]{64}, not the SHA-256 of the byte ranges/,
    );
    assert.match(docStamp(tampered), /Verification: FAILED/);
  });

  it('a tampered token fails here and in openssl, with a clear message', async (t) => {
    // One byte of the signature value, at the token's end.
    const badSig = flip(stamps[0]!, (der) => der.length - 10);
    const sig = await verify([docFile, withStamps([badSig, stamps[1]!]), '--explorer', `${base}/api`]);
    assert.equal(sig.code, 1, sig.out);
    assert.match(
      sig.out,
      /NOT VERIFIED: time stamp 1: the token of CN=Test TSA \(issued by CN=Test TSA CA\), time [0-9T:.-]+Z: its signature does not hold: /,
    );
    t.diagnostic(sig.out.split('\n').at(-1)!); // the messages in docs/attestation.md
    const sigOpenssl = opensslVerify(badSig);
    assert.notEqual(sigOpenssl.status, 0);
    assert.match(sigOpenssl.out, /Verification: FAILED/);

    // One digit of the authority's time (inside the TSTInfo the signature covers).
    const year = new Date().getUTCFullYear().toString();
    const badTime = flip(stamps[0]!, (der) => der.indexOf(Buffer.from(`${year}`)) + 3);
    const time = await verify([docFile, withStamps([badTime]), '--explorer', `${base}/api`]);
    assert.equal(time.code, 1, time.out);
    assert.match(
      time.out,
      /NOT VERIFIED: time stamp 1: the token of CN=Test TSA .*its signature does not hold: its TSTInfo \(time, serial, imprint\) is not what the authority signed: the message digest differs/,
    );
    assert.match(opensslVerify(badTime).out, /Verification: FAILED/);
    t.diagnostic(time.out.split('\n').at(-1)!);

    // The token of the other root: its imprint is not this root's.
    const swapped = { merkleRoot: stamps[0]!.merkleRoot, token: stamps[1]!.token };
    const imprint = await verify([docFile, withStamps([swapped]), '--explorer', `${base}/api`]);
    assert.equal(imprint.code, 1);
    assert.match(
      imprint.out,
      /NOT VERIFIED: time stamp 1: its message imprint [0-9a-f]{64} \(SHA-256\) is not SHA-256 of the root's 32 bytes/,
    );
    assert.match(opensslVerify(swapped).out, /Verification: FAILED/);
    t.diagnostic(imprint.out.split('\n').at(-1)!);

    // A root no receipt leads to, and bytes that are no token.
    const other = { merkleRoot: 'ab'.repeat(32), token: stamps[0]!.token };
    const root = await verify([docFile, withStamps([other]), '--explorer', `${base}/api`]);
    assert.match(
      root.out,
      /NOT VERIFIED: time stamp 1: it stamps (ab){32}, the Merkle root of none of the bundle's receipts/,
    );
    const junk = await verify([
      docFile,
      withStamps([{ merkleRoot: stamps[0]!.merkleRoot, token: 'AAAA' }]),
      '--explorer',
      `${base}/api`,
    ]);
    assert.match(junk.out, /NOT VERIFIED: time stamp 1: not an RFC 3161 time-stamp token: /);
  });
});

/**
 * The signed copy's own PDF signature: a byte changed anywhere is refused by `proofseal verify` with the part it
 * is in (original, appended attestation pages, attached bundle, bytes added after the signature), and pdfsig and
 * `openssl cms -verify` agree with each verdict, on the sound copy and on each tampered one.
 */
describe('proofseal verify <signed-copy.pdf> checks its PDF signature, as pdfsig and openssl do', () => {
  let original: Uint8Array;
  let copy: Buffer;
  let certFile: string;

  before(async () => {
    original = await onePagePdf(`Sale of a boat, ${new Date().toISOString()}`);
    const fx = proofBundle(Buffer.from(original), [{ name: 'Bo Li', email: 'bo@example.com' }]);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    copy = await signedCopyOf(original, fx.bundle);
    const cms = file('sig.der', signatureAt(copy, -1).cms);
    certFile = path.join(dir, 'signer.pem');
    assert.equal(tool('openssl', ['pkcs7', '-inform', 'DER', '-in', cms, '-print_certs', '-out', certFile]).status, 0);
  });

  /** pdfsig's and openssl's verdicts on the copy's last signature: both "valid", or both not. */
  function outsideVerdicts(pdf: Buffer): { pdfsig: boolean; openssl: boolean; text: string } {
    const sig = tool('pdfsig', [file('check.pdf', pdf)]).out;
    const { cms, signed } = signatureAt(pdf, -1);
    const cmsCheck = opensslCmsVerify(file('c.der', cms), file('signed.bin', signed), certFile);
    return {
      pdfsig: /Signature Validation: Signature is Valid\./.test(sig) && /Total document signed/.test(sig),
      openssl: cmsCheck.status === 0,
      text: sig + cmsCheck.out,
    };
  }

  /** One byte of `pdf` changed at `at`, verified by us; the verdict's last line. */
  async function tampered(at: number): Promise<{ pdf: Buffer; code: number; last: string; out: string }> {
    const pdf = Buffer.from(copy);
    pdf[at] = pdf[at] === 0x30 ? 0x31 : 0x30;
    const { code, out } = await verify([file('tampered-signed.pdf', pdf), '--explorer', `${base}/api`]);
    return { pdf, code: code ?? -1, last: out.trim().split('\n').at(-1)!, out };
  }

  it('the sound copy: verified, and valid for pdfsig and openssl', async () => {
    const outside = outsideVerdicts(copy);
    assert.deepEqual([outside.pdfsig, outside.openssl], [true, true], outside.text);
    const { code, out } = await verify([file('boat-signed.pdf', copy), '--explorer', `${base}/api`]);
    assert.equal(code, 0, out);
  });

  it('a byte of the attestation pages: "the appended part was changed", and both tools refuse it', async () => {
    const page = copy.indexOf('/MediaBox', original.length);
    assert.ok(page > original.length, 'an attestation page in the appended part');
    const at = copy.indexOf('595', page); // a digit of the page's width
    const r = await tampered(at);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.last,
      new RegExp(
        `^NOT VERIFIED: signed copy: the appended part \\(bytes ${original.length} to ${copy.length}: the attestation pages\\) was changed: signature 1 by CN=proofseal no longer matches`,
      ),
    );
    const outside = outsideVerdicts(r.pdf);
    assert.deepEqual([outside.pdfsig, outside.openssl], [false, false], outside.text);
    assert.match(outside.text, /Digest Mismatch/);
  });

  it('a byte of the attached bundle: "the bundle was changed", and both tools refuse it', async () => {
    const stream = copy.indexOf('stream', copy.indexOf('/Type /EmbeddedFile', original.length)) + 'stream\n'.length;
    const r = await tampered(stream + 40);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.last,
      /^NOT VERIFIED: signed copy: the bundle attached in the appended part \(proof-bundle-test\.json\) was changed: it is no longer a readable proof bundle/,
    );
    const outside = outsideVerdicts(r.pdf);
    assert.deepEqual([outside.pdfsig, outside.openssl], [false, false], outside.text);
  });

  it('a byte of the original: "the original part was changed", and both tools refuse it', async () => {
    const r = await tampered(Math.floor(original.length / 2));
    assert.equal(r.code, 1, r.out);
    assert.match(r.last, /^NOT VERIFIED: signed copy: the original part was changed: no revision of it/);
    const outside = outsideVerdicts(r.pdf);
    assert.deepEqual([outside.pdfsig, outside.openssl], [false, false], outside.text);
  });

  it('a byte of the signature itself: refused by us and both tools', async () => {
    const { range } = signatureAt(copy, -1);
    const r = await tampered(range[1]! + 1 + 2 * (signatureAt(copy, -1).cms.length - 20));
    assert.equal(r.code, 1, r.out);
    assert.match(r.last, /^NOT VERIFIED: signed copy: signature 1 by CN=proofseal does not hold: /);
    const outside = outsideVerdicts(r.pdf);
    assert.deepEqual([outside.pdfsig, outside.openssl], [false, false], outside.text);
  });

  it('bytes added after the signature: refused, the signature no longer covers the whole file', async () => {
    const added = Buffer.from('\n% appended later\n%%EOF\n');
    const longer = Buffer.concat([copy, added]);
    const { code, out } = await verify([file('longer-signed.pdf', longer), '--explorer', `${base}/api`]);
    assert.equal(code, 1, out);
    assert.match(
      out,
      new RegExp(
        `NOT VERIFIED: signed copy: its last ${added.length} bytes \\(after byte ${copy.length}, where the last signature ends\\) are signed by no one`,
      ),
    );
    assert.doesNotMatch(tool('pdfsig', [file('longer.pdf', longer)]).out, /Total document signed/);
  });
});

describe("proofseal verify <signed-copy.pdf> of an original that was signed already: the original's own signature still holds", () => {
  it('both signatures named and checked, as pdfsig reads them; a byte of the original breaks both', async () => {
    const identity = await serviceSigningIdentity('o'.repeat(40), 'Original Signer Ltd');
    const unsigned = await onePagePdf('A contract signed before upload');
    const original = await padesSigner({ identity: async () => identity, now: Date.now }).sign(unsigned);
    const fx = proofBundle(Buffer.from(original), [{ name: 'Cy Ho', email: 'cy@example.com' }]);
    for (const e of fx.bundle.bitcoinSpv) chain.set(e.blockHeight, e.blockHash);
    const copy = await signedCopyOf(original, fx.bundle);
    const { code, out } = await verify([file('signed-twice-signed.pdf', copy), '--explorer', `${base}/api`]);
    assert.equal(code, 0, out);
    assert.match(out, /✓ the original's own signature 1 by CN=Original Signer Ltd still holds/);
    assert.match(out, /✓ signature 2 by CN=proofseal holds/);
    assert.ok(out.includes(`✓ signature 2 by CN=proofseal covers the whole file (${copy.length} bytes)`), out);
    const sig = tool('pdfsig', [file('twice.pdf', copy)]).out;
    assert.equal((sig.match(/Signature Validation: Signature is Valid\./g) ?? []).length, 2, sig);
    assert.match(sig, /Signer Certificate Common Name: Original Signer Ltd/);

    const tampered = Buffer.from(copy);
    tampered[Math.floor(signatureAt(copy, 0).range[1]! / 2)] ^= 0x01; // inside the original's first signed range
    const bad = await verify([file('twice-tampered-signed.pdf', tampered), '--explorer', `${base}/api`]);
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /NOT VERIFIED: signed copy: the original part was changed/);
    const badSig = tool('pdfsig', [file('twice-bad.pdf', tampered)]).out;
    assert.equal((badSig.match(/Digest Mismatch/g) ?? []).length, 2, badSig);
  });
});
