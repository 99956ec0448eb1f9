// tier: slow (a bcoin regtest node, poppler and openssl)
/**
 * Issue 23 §3: a request signed and completed on the real regtest node, its attestation PDF signed (PAdES B-T,
 * DSS, document time-stamp) with a real RFC 3161 authority (`openssl ts -reply` on the loopback); then, with the
 * proofseal service stopped, the PDF is checked with poppler's `pdfsig` and `openssl cms`/`openssl ts`, and the
 * proof bundle taken out of the PDF with `proofseal verify <document> <bundle> --headers <file>` against the
 * node's headers dumped over RPC. Tampering: one byte of the document, of the attestation's text, of the bundle,
 * of a TSA token, and a header from another block, each rejected by the tool that should catch it, with its message.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../src/adapters/pdf/brand-images.js';
import { padesSigner } from '../../src/adapters/pdf/pades-signer.js';
import { serviceSigningIdentity, type SigningIdentity } from '../../src/adapters/pdf/signing-identity.js';
import { rfc3161Client } from '../../src/adapters/pdf/tsa-client.js';
import type { AppDeps } from '../../src/app/shared/deps.js';
import { attestationPdf } from '../../src/app/signature-requests/attestation/attestation-pdf.js';
import { bundleInPdf } from '../../src/web/browser/pdf-attachment.js';
import { startAnchoring, type AnchoringFixture } from '../support/anchoring-fixture.js';
import { runVerify } from '../support/client-context.js';
import { completedRequest } from '../support/completed-request.js';
import { testApp, testConfig, testDeps } from '../support/fixtures.js';
import { opensslCmsVerify, opensslTsVerify, signatureAt, tool } from '../support/pdf-checks.js';
import { startOpensslTsa, type OpensslTsa } from '../support/openssl-tsa.js';
import { storeKinds } from '../support/stores.js';
import { createOwner, platformSignerIn } from '../signature-requests/fixture.js';

const kind = (await storeKinds()).find((k) => !k.skip)!;
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-offline-'));
let seq = 0;
function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}
const flipByte = (bytes: Uint8Array, at: number): Buffer => {
  const b = Buffer.from(bytes);
  b[at] ^= 0x01;
  return b;
};

describe(`offline verification of a completed request (${kind.name} store, bcoin regtest, OpenSSL TSA)`, () => {
  let f: AnchoringFixture;
  let app: FastifyInstance;
  let tsa: OpensslTsa;
  let deps: AppDeps;
  let identity: SigningIdentity;
  let documentFile: string;
  let document: Buffer;
  let pdf: Buffer;
  let bundleText: string;
  let headersFile: string;
  let spv: { blockHash: string; blockHeight: number; blockHeader: string; txid: string };
  let certFile: string;

  /** `proofseal verify …` as a user runs it (test/support/client-context.ts). */
  const verify = (args: string[]) => runVerify(dir, args);

  async function dumpHeaders(rpc: (m: string, p: unknown[]) => Promise<unknown>, name: string): Promise<string> {
    const tip = (await rpc('getblockcount', [])) as number;
    const lines: string[] = [];
    for (let h = 0; h <= tip; h += 1) {
      const hash = (await rpc('getblockhash', [h])) as string;
      lines.push(`${h} ${(await rpc('getblockheader', [hash, false])) as string}`);
    }
    return file(name, `# regtest headers 0..${tip}\n${lines.join('\n')}\n`);
  }

  before(async () => {
    tsa = await startOpensslTsa();
    f = await startAnchoring(kind);
    const store = f.s.withJobs(() => f.jobs);
    const platformSigner = await platformSignerIn(store, { now: Date.now });
    identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
    const authority = rfc3161Client(createSafeFetch({ allowPrivateUrls: true }), [tsa.url]);
    deps = {
      ...testDeps(store, { chain: f.chain, jobs: f.jobs, platformSigner }),
      attestation: {
        renderer: pdfAttestationRenderer(),
        images: cachedBrandImages(createSafeFetch({ allowPrivateUrls: false })),
        publicUrl: 'https://proofseal.example.com',
        serviceName: 'proofseal',
        signer: padesSigner({ identity: async () => identity, tsa: authority, now: Date.now }),
        timestamps: authority,
      },
    };
    app = await testApp(store, { deps, config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) });
    const { auth } = await createOwner(deps);

    document = Buffer.from(`lease of flat 4B, signed ${new Date().toISOString()}\n`);
    documentFile = file('lease.txt', document);
    const hashToSign = createHash('sha256').update(document).digest('hex');
    const { id } = await completedRequest({ f, app, deps, auth, hashToSign });
    pdf = Buffer.from(await attestationPdf(deps, id));
    const served = await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: auth });
    const fromPdf = await bundleInPdf(new Uint8Array(pdf));
    assert.ok(fromPdf, 'the attestation carries its bundle');
    bundleText = JSON.stringify(fromPdf);
    const parsed = JSON.parse(bundleText) as { bitcoinSpv: (typeof spv)[]; rfc3161Timestamps: unknown[] };
    assert.deepEqual(
      parsed.rfc3161Timestamps,
      served.json<{ rfc3161Timestamps: unknown[] }>().rfc3161Timestamps,
      'the PDF and the API carry the same tokens',
    );
    spv = parsed.bitcoinSpv[0]!;
    headersFile = await dumpHeaders((m, p) => f.chain.call(m, p), 'headers.txt');

    const der = file('proofseal.der', new Uint8Array(identity.certificates[0]!.toSchema().toBER()));
    certFile = path.join(dir, 'proofseal.pem');
    assert.equal(tool('openssl', ['x509', '-inform', 'DER', '-in', der, '-out', certFile]).status, 0);

    // The service stops: from here on only files, the tools and (for --rpc-url) the Bitcoin node are used.
    await app.close();
  });
  after(async () => {
    await f?.close();
    await tsa?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pdfsig: the CAdES signature is valid, the document time-stamp covers the whole file', (t) => {
    const report = tool('pdfsig', [file('attestation.pdf', pdf)]).out;
    t.diagnostic(report);
    assert.match(report, /Signature #1:[\s\S]*Signature Validation: Signature is Valid\./);
    assert.match(report, /Signature #2:[\s\S]*Signer Certificate Common Name: Test TSA[\s\S]*Total document signed/);
  });

  it('openssl: the CMS over its byte ranges, its time-stamp, the document time-stamp and the bundle’s tokens', () => {
    const { cms, signed } = signatureAt(pdf, 0);
    const cmsOk = opensslCmsVerify(file('cms.der', cms), file('signed.bin', signed), certFile);
    assert.equal(cmsOk.status, 0, cmsOk.out);
    assert.match(cmsOk.out, /CMS Verification successful/);
    const doc = signatureAt(pdf, -1);
    const docOk = opensslTsVerify(file('doc-ranges.bin', doc.signed), file('doc-ts.der', doc.cms), tsa);
    assert.match(docOk.out, /Verification: OK/);
    const bundle = JSON.parse(bundleText) as {
      rfc3161Timestamps: { merkleRoot: string; token: string }[];
      signatureReceipts: { merkleRoot: string }[];
    };
    assert.deepEqual(
      bundle.rfc3161Timestamps.map((t) => t.merkleRoot),
      [bundle.signatureReceipts[0]!.merkleRoot],
      'one batch: one root, one token',
    );
    for (const t of bundle.rfc3161Timestamps) {
      const ok = opensslTsVerify(
        file('root.bin', Buffer.from(t.merkleRoot, 'hex')),
        file('root-token.der', Buffer.from(t.token, 'base64')),
        tsa,
      );
      assert.match(ok.out, /Verification: OK/, ok.out);
    }
  });

  it('proofseal verify --headers: everything checked here, the block relied on printed', async (t) => {
    const bundleFile = file('bundle.json', bundleText);
    const { code, out } = await verify([documentFile, bundleFile, '--headers', headersFile]);
    t.diagnostic(out); // the sample in docs/attestation.md
    assert.equal(code, 0, out);
    assert.match(out, /signature 1:\n {2}✓ the document's SHA-256 [0-9a-f]{64} is the hash the receipt proves/);
    assert.match(out, /audit trail:\n {2}✓ auditTrailData hashes to [0-9a-f]{64}, the hash the receipt proves/);
    assert.match(out, /✓ transaction [0-9a-f]{64} carries the root in OP_RETURN/);
    assert.match(out, /✓ the header of block [0-9a-f]{64} carries its proof of work/);
    assert.ok(out.includes(`relied on block ${spv.blockHash} at height ${spv.blockHeight}`), out);
    assert.equal(await f.chain.getBlockHash(spv.blockHeight), spv.blockHash, 'the node agrees');
    assert.match(out, /time stamp 1:\n {2}✓ it stamps root [0-9a-f]{64}, the Merkle root of the bundle's receipts/);
    assert.match(out, /✓ the authority CN=Test TSA \(issued by CN=Test TSA CA\) signed it at /);
    assert.match(out, /VERIFIED: .* and by 1 RFC 3161 time stamp\(s\); no proofseal server was asked/);
    const viaNode = await verify([documentFile, bundleFile, '--rpc-url', f.node.rpcUrl]);
    assert.equal(viaNode.code, 0, viaNode.out);
    assert.ok(viaNode.out.includes(`relied on block ${spv.blockHash} at height ${spv.blockHeight}`));
    assert.doesNotMatch(viaNode.out, /:[^@/]*@/, 'no credentials printed');
    assert.equal((await verify([documentFile, bundleFile])).code, 2, 'a bundle needs a header source');

    // An Esplora API (the two calls it is asked), answering from the node.
    const esplora = http.createServer((req, res) => {
      const height = /^\/api\/block-height\/(\d+)$/.exec(req.url ?? '')?.[1];
      const answer =
        req.url === '/api/blocks/tip/height'
          ? f.chain.getBlockCount().then(String)
          : height !== undefined
            ? f.chain.getBlockHash(Number(height))
            : Promise.resolve(null);
      void answer.then((text) => (text === null ? res.writeHead(404).end('Block not found') : res.end(text)));
    });
    await new Promise<void>((resolve) => esplora.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(esplora.address() as AddressInfo).port}/api`;
      const viaExplorer = await verify([documentFile, bundleFile, '--explorer', url]);
      assert.equal(viaExplorer.code, 0, viaExplorer.out);
      assert.ok(viaExplorer.out.includes(`header source: the block explorer at ${url}`));
      assert.ok(viaExplorer.out.includes(`relied on block ${spv.blockHash} at height ${spv.blockHeight}`));
    } finally {
      await new Promise<void>((resolve) => esplora.close(() => resolve()));
    }
  });

  it('tampering: each change is rejected by the tool that should catch it, with its message', async () => {
    const bundleFile = file('bundle.json', bundleText);
    // One byte of the original document: proofseal verify.
    const doc = await verify([file('lease-changed.txt', flipByte(document, 3)), bundleFile, '--headers', headersFile]);
    assert.equal(doc.code, 1);
    assert.match(
      doc.out,
      /NOT VERIFIED: signature 1: the document's SHA-256 [0-9a-f]{64} is not the hash the receipt proves/,
    );

    // One byte of the attestation's text (inside the first signed range): pdfsig and openssl cms.
    const { range } = signatureAt(pdf, 0);
    // The page's text is drawn in a compressed content stream: a byte of it changes what the page says.
    const textAt = pdf.indexOf('stream\n', pdf.indexOf('/FlateDecode')) + 'stream\n'.length + 40;
    assert.ok(textAt > 100 && textAt < range[1]!, 'a content stream in the signed part');
    assert.notEqual(
      tool('pdftotext', [file('changed-text.pdf', flipByte(pdf, textAt)), '-']).out,
      tool('pdftotext', [file('text.pdf', pdf), '-']).out,
      'the byte changes the text',
    );
    const changedPdf = flipByte(pdf, textAt);
    assert.match(tool('pdfsig', [file('changed.pdf', changedPdf)]).out, /Signature Validation: Digest Mismatch\./);
    const changed = signatureAt(changedPdf, 0);
    const cms = opensslCmsVerify(file('cms.der', changed.cms), file('signed.bin', changed.signed), certFile);
    assert.notEqual(cms.status, 0);
    assert.match(
      cms.out,
      /CMS Verification failure[\s\S]*CMS_SignerInfo_verify_content:verification failure[\s\S]*content verify error/,
    );

    // One byte of the bundle: the trail, the transaction.
    const bundle = JSON.parse(bundleText) as {
      auditTrailData: { auditContext: { name: string } };
      bitcoinSpv: { rawTx: string }[];
    };
    const trailChanged = structuredClone(bundle);
    trailChanged.auditTrailData.auditContext.name = 'Leasf';
    const trail = await verify([documentFile, file('b1.json', JSON.stringify(trailChanged)), '--headers', headersFile]);
    assert.equal(trail.code, 1);
    assert.match(
      trail.out,
      /NOT VERIFIED: audit trail: auditTrailData hashes to [0-9a-f]{64}, the audit-trail receipt proves [0-9a-f]{64}/,
    );
    const txChanged = structuredClone(bundle);
    txChanged.bitcoinSpv[0]!.rawTx = flipByte(Buffer.from(bundle.bitcoinSpv[0]!.rawTx, 'hex'), 50).toString('hex');
    const tx = await verify([documentFile, file('b2.json', JSON.stringify(txChanged)), '--headers', headersFile]);
    assert.equal(tx.code, 1);
    assert.match(tx.out, /NOT VERIFIED: signature 1: TXID: "rawTx" hashes to [0-9a-f]{64}, not [0-9a-f]{64}/);

    // One byte of a TSA token: openssl ts.
    const stamps = (JSON.parse(bundleText) as { rfc3161Timestamps: { merkleRoot: string; token: string }[] })
      .rfc3161Timestamps;
    const token = Buffer.from(stamps[0]!.token, 'base64');
    const badToken = flipByte(token, token.length - 10); // inside the signature value at the end
    const ts = opensslTsVerify(
      file('root.bin', Buffer.from(stamps[0]!.merkleRoot, 'hex')),
      file('bad-token.der', badToken),
      tsa,
    );
    assert.notEqual(ts.status, 0);
    assert.match(ts.out, /Verification: FAILED/);
    assert.match(ts.out, /signature failure|bad signature|invalid signature|wrong signature length/i, ts.out);
    // ... and proofseal verify, which checks the bundle's tokens itself.
    const stampChanged = {
      ...JSON.parse(bundleText),
      rfc3161Timestamps: [{ ...stamps[0]!, token: badToken.toString('base64') }],
    };
    const tsOurs = await verify([
      documentFile,
      file('b-ts.json', JSON.stringify(stampChanged)),
      '--headers',
      headersFile,
    ]);
    assert.equal(tsOurs.code, 1, tsOurs.out);
    assert.match(tsOurs.out, /NOT VERIFIED: time stamp 1: the token of CN=Test TSA .*: its signature does not hold: /);

    // A header from another block: in the bundle (the branch no longer meets it) ...
    const nextHeader = (await f.chain.getBlockHeaderHex((await f.chain.getBlockHash(spv.blockHeight + 1))!))!;
    const headerChanged = structuredClone(bundle) as unknown as { bitcoinSpv: { blockHeader: string }[] };
    headerChanged.bitcoinSpv[0]!.blockHeader = nextHeader;
    const inBundle = await verify([
      documentFile,
      file('b3.json', JSON.stringify(headerChanged)),
      '--headers',
      headersFile,
    ]);
    assert.equal(inBundle.code, 1);
    assert.match(
      inBundle.out,
      /NOT VERIFIED: signature 1: MERKLE_BRANCH: the branch leads to [0-9a-f]{64}, the header holds [0-9a-f]{64}/,
    );
    // ... in the headers file (the chain breaks there) ...
    const lines = readFileSync(headersFile, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith(`${spv.blockHeight} `));
    lines[at] = `${spv.blockHeight} ${nextHeader}`;
    const spliced = await verify([documentFile, bundleFile, '--headers', file('spliced.txt', lines.join('\n'))]);
    assert.equal(spliced.code, 2);
    assert.match(
      spliced.out,
      new RegExp(`line ${at + 1}: the header at height ${spv.blockHeight} does not link to the one before`),
    );
    // ... and a sound chain that is not ours: the node forks below our block (last, it changes the node's chain).
    await f.chain.call('invalidateblock', [spv.blockHash]);
    await f.node.mine(12);
    assert.notEqual(await f.chain.getBlockHash(spv.blockHeight), spv.blockHash);
    const forkHeaders = await dumpHeaders((m, p) => f.chain.call(m, p), 'fork-headers.txt');
    const fork = await verify([documentFile, bundleFile, '--headers', forkHeaders]);
    assert.equal(fork.code, 1);
    assert.match(
      fork.out,
      new RegExp(
        `NOT VERIFIED: best chain: the headers file .* has block [0-9a-f]{64} at height ${spv.blockHeight}, not ${spv.blockHash}`,
      ),
    );
  });
});
