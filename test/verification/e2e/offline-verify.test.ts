// tier: slow (spawned processes, a bcoin regtest node, poppler and openssl)
/**
 * Issue 23 §3 on the product (issue 31 §4: no hand composition): `proofseal start --role api` + `--role worker` on
 * PostgreSQL, with the platform key on a `--role identity` process (PLATFORM_IDENTITY_URL), on a Bitcoin node of the operator's own (BITCOIN_RPC_URL: a bcoin regtest node in this process) and
 * with a real RFC 3161 authority (TSA_URLS: `openssl ts -reply` on the loopback). A request is created and signed
 * by two signers with the CLI (by delegation, from the links of their invitations), its attestation PDF saved
 * (PAdES B-T, DSS, document time-stamp) and the headers file written (`proofseal headers --out`); then, with the
 * service stopped, the PDF is checked with poppler's `pdfsig` and `openssl cms`/`openssl ts`, and the proof bundle
 * taken out of the PDF with `proofseal verify <document> <bundle>` against that headers file, the node
 * (`--rpc-url`) and an explorer. Tampering: one byte of the document, of the attestation's text, of the bundle, of
 * a TSA token, and a header from another block, each rejected by the tool that should catch it, with its message.
 * The signed copy and the default run: ./offline-path-*.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BitcoinRpcClient } from '../../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { serviceSigningIdentity } from '../../../src/adapters/pdf/signing-identity.js';
import { bundleInPdf } from '../../../src/web/browser/pdf-attachment.js';
import { runVerify } from '../../support/client-context.js';
import { cli } from '../../support/default-run.js';
import { invitationLink } from '../../support/offline-path.js';
import { opensslCmsVerify, opensslTsVerify, signatureAt, tool } from '../../support/pdf-checks.js';
import { startOpensslTsa, type OpensslTsa } from '../../support/openssl-tsa.js';
import { startRoleSplit, type RoleSplitRun } from '../../support/role-split-run.js';
import { storeKinds } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';

const [, postgres] = await storeKinds();
const skip = postgres!.skip;
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-offline-'));
let seq = 0;
function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}
/** The Merkle roots the bundle's receipts name, each once, sorted. */
function rootsOf(bundleText: string): string[] {
  const bundle = JSON.parse(bundleText) as { signatureReceipts: Root[]; auditTrailReceipt: Root };
  return [...new Set([...bundle.signatureReceipts, bundle.auditTrailReceipt].map((r) => r.merkleRoot))].sort();
}
type Root = { merkleRoot: string };
const flipByte = (bytes: Uint8Array, at: number): Buffer => {
  const b = Buffer.from(bytes);
  b[at] ^= 0x01;
  return b;
};

describe('offline verification of a request completed on api + worker processes', { skip }, () => {
  let node: EmbeddedRegtest;
  let chain: BitcoinRpcClient;
  let run: RoleSplitRun;
  let tsa: OpensslTsa;
  let documentFile: string;
  let document: Buffer;
  let pdf: Buffer;
  let bundleText: string;
  let headersFile: string;
  let spv: { blockHash: string; blockHeight: number; blockHeader: string; txid: string };
  let certFile: string;

  /** `proofseal verify …` as a user runs it (test/support/client-context.ts). */
  const verify = (args: string[]) => runVerify(dir, args);

  /** `proofseal headers --out`, as the operator runs it beside the service (here: on BITCOIN_RPC_URL). */
  async function writeHeaders(name: string, from?: number): Promise<string> {
    const out = path.join(dir, `${(seq += 1)}-${name}`);
    const args = ['headers', ...(from === undefined ? [] : ['--from', String(from)]), '--out', out];
    const r = await cli(args, run.env);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    return out;
  }

  before(async () => {
    tsa = await startOpensslTsa();
    node = await EmbeddedRegtest.start();
    chain = new BitcoinRpcClient({ url: node.rpcUrl });
    run = await startRoleSplit({ node, extra: { TSA_URLS: tsa.url }, remoteIdentity: true });
    const owner = async (args: string[]) => {
      const r = await run.cli(args);
      assert.equal(r.code, 0, `proofseal ${args.join(' ')}: ${r.stdout}${r.stderr}\n--- service:\n${run.output()}`);
      return r.stdout;
    };

    document = Buffer.from(`lease of flat 4B, signed ${new Date().toISOString()}\n`);
    documentFile = file('lease.txt', document);
    const signers = ['--signer', 'Ann Lee <ann@example.com>', '--signer', 'Bob Martin <bob@example.com>'];
    const created = await owner(['request', 'create', documentFile, ...signers, '--json']);
    const { id } = JSON.parse(created) as { id: string };
    for (const to of ['ann@example.com', 'bob@example.com'])
      await owner(['request', 'delegate', await invitationLink(run, id, to)]);
    const attestationFile = path.join(dir, 'attestation.pdf');
    await waitUntil(
      async () => (await run.cli(['request', 'attestation', id, '-o', attestationFile])).code === 0,
      'the attestation (every proof confirmed)',
      180_000,
      1000,
    );
    pdf = readFileSync(attestationFile);
    // The third split: the platform key is the identity process's, asked over HTTP (PLATFORM_IDENTITY_URL) for the
    // delegated signatures and the sealed trail; the bundle the jobs kept is complete all the same (below).
    assert.ok(
      (run.output().match(/"url":"\/sign\?[^\n]*"res":\{"statusCode":200\}/g) ?? []).length >= 3,
      `the identity process signed the two signatures and the trail\n${run
        .output()
        .split('\n')
        .filter((l) => l.includes('sign'))
        .slice(0, 20)
        .join('\n')}`,
    );
    await owner(['request', 'proofs', id, '--out', path.join(dir, 'served.json')]);
    const served = JSON.parse(readFileSync(path.join(dir, 'served.json'), 'utf8')) as {
      rfc3161Timestamps: unknown[];
    };
    const fromPdf = await bundleInPdf(new Uint8Array(pdf));
    assert.ok(fromPdf, 'the attestation carries its bundle');
    bundleText = JSON.stringify(fromPdf);
    const parsed = JSON.parse(bundleText) as { bitcoinSpv: (typeof spv)[]; rfc3161Timestamps: unknown[] };
    assert.deepEqual(parsed.rfc3161Timestamps, served.rfc3161Timestamps, 'the PDF and the API carry the same tokens');
    spv = parsed.bitcoinSpv[0]!;
    headersFile = await writeHeaders('headers.txt');

    // The certificate the service signs with: its own, derived from SECRET_KEY (no PDF_SIGNING_P12 given).
    const identity = await serviceSigningIdentity(run.env.SECRET_KEY!, 'proofseal');
    const der = file('proofseal.der', new Uint8Array(identity.certificates[0]!.toSchema().toBER()));
    certFile = path.join(dir, 'proofseal.pem');
    assert.equal(tool('openssl', ['x509', '-inform', 'DER', '-in', der, '-out', certFile]).status, 0);

    // The service stops: from here on only files, the tools and (for --rpc-url) the Bitcoin node are used.
    await run.stop();
  });
  after(async () => {
    await run?.close();
    await node?.stop();
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
    };
    assert.deepEqual(
      bundle.rfc3161Timestamps.map((t) => t.merkleRoot).sort(),
      rootsOf(bundleText),
      'one token per batch: per root the receipts name',
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
    assert.equal(await chain.getBlockHash(spv.blockHeight), spv.blockHash, 'the node agrees');
    assert.match(out, /time stamp 1:\n {2}✓ it stamps root [0-9a-f]{64}, the Merkle root of the bundle's receipts/);
    assert.match(out, /✓ the authority CN=Test TSA \(issued by CN=Test TSA CA\) signed it at /);
    const stamps = rootsOf(bundleText).length;
    assert.match(
      out,
      new RegExp(`VERIFIED: .* and by ${stamps} RFC 3161 time stamp\\(s\\); no proofseal server was asked`),
    );
    const viaNode = await verify([documentFile, bundleFile, '--rpc-url', node.rpcUrl]);
    assert.equal(viaNode.code, 0, viaNode.out);
    assert.ok(viaNode.out.includes(`relied on block ${spv.blockHash} at height ${spv.blockHeight}`));
    assert.doesNotMatch(viaNode.out, /:[^@/]*@/, 'no credentials printed');
    assert.equal((await verify([documentFile, bundleFile])).code, 2, 'a bundle needs a header source');

    // An Esplora API (the two calls it is asked), answering from the node.
    const esplora = http.createServer((req, res) => {
      const height = /^\/api\/block-height\/(\d+)$/.exec(req.url ?? '')?.[1];
      const answer =
        req.url === '/api/blocks/tip/height'
          ? chain.getBlockCount().then(String)
          : height !== undefined
            ? chain.getBlockHash(Number(height))
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
    const nextHeader = (await chain.getBlockHeaderHex((await chain.getBlockHash(spv.blockHeight + 1))!))!;
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
    // ... in the headers file (the chain breaks there; the file starts a few blocks before ours, `--from`) ...
    const lines = readFileSync(await writeHeaders('headers-from.txt', spv.blockHeight - 3), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith(`${spv.blockHeight} `));
    lines[at] = `${spv.blockHeight} ${nextHeader}`;
    const spliced = await verify([documentFile, bundleFile, '--headers', file('spliced.txt', lines.join('\n'))]);
    assert.equal(spliced.code, 2);
    assert.match(
      spliced.out,
      new RegExp(`line ${at + 1}: the header at height ${spv.blockHeight} does not link to the one before`),
    );
    // ... and a sound chain that is not ours: the node forks below our block (last, it changes the node's chain).
    await chain.call('invalidateblock', [spv.blockHash]);
    await node.mine(12);
    assert.notEqual(await chain.getBlockHash(spv.blockHeight), spv.blockHash);
    const forkHeaders = await writeHeaders('fork-headers.txt', 0);
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
