// tier: slow (qpdf for the signed copy made here)
/**
 * `proofseal verify <signed-copy.pdf>` alone: a real signed copy (the original PDF, our incremental update with
 * the attestation's pages and the attached bundle, then the PAdES signature: the assembler and signer the
 * service uses) of a bundle with real signatures and Merkle paths on synthetic blocks (test/support). The
 * original is found inside it, the bundle read from its attachment, and every check of
 * `proofseal verify <document> <bundle>` made, against an Esplora API and a node's JSON-RPC answered by a local
 * server. One byte of the original changed inside the copy: not verified, with the reason.
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
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { padesSigner } from '../../src/adapters/pdf/pades-signer.js';
import { pdfSignedCopyAssembler } from '../../src/adapters/pdf/signed-copy-assembler.js';
import { serviceSigningIdentity } from '../../src/adapters/pdf/signing-identity.js';
import { UsageError } from '../../src/cli/args.js';
import { verifyCommand } from '../../src/cli/verify-command.js';
import { testClientContext } from '../support/client-context.js';
import { proofBundle, type BundleFixture } from '../support/proof-bundle-fixture.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-verify-copy-'));
let seq = 0;
function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, `${(seq += 1)}-${name}`);
  writeFileSync(p, bytes);
  return p;
}

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 60, y: 760, font, size: 16 });
  return doc.save();
}

/** `proofseal verify …` as a user runs it: its lines, its exit code (2 for a usage error). */
async function verify(args: string[]): Promise<{ code: number | undefined; out: string }> {
  const lines: string[] = [];
  process.exitCode = undefined;
  try {
    await verifyCommand(
      args,
      testClientContext(dir, (l) => lines.push(l)),
    );
    return { code: process.exitCode, out: lines.join('\n') };
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, out: err.message };
    throw err;
  } finally {
    process.exitCode = undefined;
  }
}

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
  let server: http.Server;
  let base: string;

  before(async () => {
    original = await onePagePdf(`Lease of flat 4B, ${new Date().toISOString()}`);
    fx = proofBundle(Buffer.from(original), [{ name: 'Ann Lee', email: 'ann@example.com' }]);
    copy = await signedCopyOf(original, fx.bundle);
    const byHeight = new Map(fx.bundle.bitcoinSpv.map((e) => [e.blockHeight, e.blockHash]));
    const tip = Math.max(...byHeight.keys()) + 5;
    // An Esplora API (GET) and a node's JSON-RPC (POST) over the same synthetic chain.
    server = http.createServer((req, res) => {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: number[] };
          const hash = byHeight.get(params[0]!);
          const answer =
            method === 'getblockcount'
              ? { result: tip, error: null, id }
              : hash !== undefined
                ? { result: hash, error: null, id }
                : { result: null, error: { code: -8, message: 'Block height out of range' }, id };
          res.setHeader('content-type', 'application/json').end(JSON.stringify(answer));
        });
        return;
      }
      const height = /^\/api\/block-height\/(\d+)$/.exec(req.url ?? '')?.[1];
      if (req.url === '/api/blocks/tip/height') return void res.end(String(tip));
      const hash = height === undefined ? undefined : byHeight.get(Number(height));
      if (hash === undefined) return void res.writeHead(404).end('Block not found');
      res.end(hash);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
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
      /VERIFIED: .*lease-signed\.pdf \(its original revision\) and its 2 receipts, .* no proofseal server was asked/,
    );

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
        `NOT VERIFIED: signed copy: no revision of it (a prefix ending at %%EOF) hashes to the document the attached bundle names (${hashes.auditContext.hashToSign}): it was changed`,
      ),
      out,
    );
    assert.match(out, /✗ the document's SHA-256 [0-9a-f]{64} is not the hash the receipt proves/);
  });
});
