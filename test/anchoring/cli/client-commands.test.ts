/**
 * The client commands in process, against a real identity server and a stub of the API (node:http), so
 * seal and verify are checked without waiting for a Bitcoin batch: what seal sends, the receipt it saves,
 * and every verdict of verify.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import bitcoinMessage from 'bitcoinjs-message';
import type { FastifyInstance } from 'fastify';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import { createIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { signHash } from '../../../src/app/identity/sign-hash.js';
import { findCommand, receiptCommand } from '../../../src/cli/lookup-commands.js';
import { sealCommand, type ClientContext } from '../../../src/cli/seal-command.js';
import { verifyCommand } from '../../../src/cli/verify-command.js';
import { opReturnScript } from '../../../src/core/bitcoin/op-return.js';
import { buildReceipt, signatureLeaf, type ChainpointReceipt } from '../../../src/core/chainpoint/receipt.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { testClientContext } from '../../support/client-context.js';
import { realRandom, testClock, testConfig } from '../../support/fixtures.js';

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface Stub {
  url: string;
  server: http.Server;
  requests: { method: string; url: string; body: unknown }[];
  verification: object;
  polls: number;
}

/** A stand-in for the API: anchors go WAIT then SENT on the next poll; verify answers `stub.verification`. */
async function stubApi(receiptOf: (anchor: Record<string, string>) => ChainpointReceipt): Promise<Stub> {
  const stub: Stub = { url: '', server: http.createServer(), requests: [], verification: {}, polls: 0 };
  let anchor: Record<string, string> = {};
  stub.server.on('request', (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => {
      text += d.toString();
    });
    req.on('end', () => {
      const body = text ? JSON.parse(text) : null;
      stub.requests.push({ method: req.method!, url: req.url!, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/v1/anchor') {
        anchor = body;
        return send(200, { id: '11111111-2222-4333-8444-555555555555', status: 'WAIT' });
      }
      if (req.method === 'GET' && req.url?.startsWith('/v1/anchor/'))
        return send(200, { id: 'x', status: stub.polls++ === 0 ? 'WAIT' : 'SENT', txId: 'ab'.repeat(32) });
      if (req.method === 'GET' && req.url?.startsWith('/v1/receipt/')) return send(200, receiptOf(anchor));
      if (req.method === 'POST' && req.url === '/v1/receipt/verify') return send(200, stub.verification);
      if (req.url?.startsWith('/v1/anchorids'))
        return send(200, {
          content: ['11111111-2222-4333-8444-555555555555'],
          page: 0,
          size: 100,
          totalElements: 1,
          totalPages: 1,
          first: true,
          last: true,
        });
      return send(404, { statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: 'no such route' });
    });
  });
  await new Promise<void>((r) => stub.server.listen(0, '127.0.0.1', r));
  stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
  return stub;
}

/** A one-leaf receipt of a signature anchor (root = leaf, empty proof), as the API would serve it once SENT. */
function receiptFor(anchor: Record<string, string>): ChainpointReceipt {
  const leaf = signatureLeaf(anchor.signature!);
  return buildReceipt({
    targetHash: leaf,
    merkleRoot: leaf,
    proof: [],
    txId: 'ab'.repeat(32),
    signature: {
      signedHash: anchor.signedHash!,
      pubKey: anchor.pubKey!,
      signature: anchor.signature!,
      identityURL: anchor.identityURL,
      signedIdentity: anchor.signedIdentity,
      signedIssuerDomain: anchor.signedIssuerDomain,
    },
  });
}

const VERIFIED = {
  code: 'VERIFIED',
  text: 'ok',
  timestamp: 1_700_000_000_000,
  confirmations: 3,
  timestampVerificationStatus: 'VERIFIED',
  signatureVerificationStatus: 'VERIFIED',
  identityVerificationStatus: 'HTTP_ERROR',
};

describe('client commands: seal, verify, receipt, find', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-cli-'));
  let opened: OpenedStore;
  let identity: FastifyInstance;
  let deps: IdentityDeps;
  let stub: Stub;
  let identityToken: string;
  let lines: string[];
  let ctx: ClientContext;
  const doc = path.join(dir, 'doc.txt');

  before(async () => {
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    deps = {
      store: opened.store,
      clock: testClock(Date.now()),
      random: realRandom,
      identity: { secretKey: 's'.repeat(40), publicUrl: 'https://id.example.com' },
    };
    identity = await buildIdentityApp(deps, testConfig());
    await identity.listen({ port: 0, host: '127.0.0.1' });
    await createIdentityKey(deps, {
      name: 'k',
      identity: { commonName: 'Jane Doe', emailAddress: 'jane@example.com' },
    });
    identityToken = (await createIdentityToken(deps)).token;
    stub = await stubApi(receiptFor);
    writeFileSync(doc, `document ${randomBytes(8).toString('hex')}`);
  });
  after(async () => {
    await identity.close();
    await new Promise((r) => stub.server.close(r));
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  const flags = () => [
    '--api-url',
    stub.url,
    '--identity-url',
    `http://127.0.0.1:${(identity.server.address() as AddressInfo).port}`,
    '--identity-token',
    identityToken,
    '--token',
    'ps_test',
  ];
  const fresh = () => {
    lines = [];
    ctx = testClientContext(dir, (l) => lines.push(l));
  };

  it('seal: streams the hash, signs on the identity server (identity bound), creates the anchor, waits for SENT, saves the receipt', async () => {
    fresh();
    await sealCommand([doc, '--identity', 'ALL', '--private', '--name', 'my doc', '--json', ...flags()], ctx);
    const post = stub.requests.find((r) => r.method === 'POST' && r.url === '/v1/anchor')!.body as Record<
      string,
      unknown
    >;
    const hash = createHash('sha256').update(readFileSync(doc)).digest('hex');
    assert.equal(post.signedHash, hash);
    assert.equal(post.name, 'my doc');
    assert.equal(post.public, false);
    assert.equal(post.signedIdentity, 'CN=Jane Doe,EMAILADDRESS=jane@example.com');
    assert.equal(post.signedIssuerDomain, 'example.com');
    assert.ok(
      bitcoinMessage.verify(
        sha256Hex(hash + post.signedIdentity + post.signedIssuerDomain),
        post.pubKey as string,
        post.signature as string,
      ),
    );
    const out = JSON.parse(lines[0]!);
    assert.equal(out.status, 'SENT');
    assert.equal(out.receiptFile, `${doc}.receipt.json`);
    assert.equal(JSON.parse(readFileSync(out.receiptFile, 'utf8')).signature.signedHash, hash);
  });

  it('verify: VERIFIED with exit code 0 when the file, signature, path and chain all hold', async () => {
    fresh();
    stub.verification = VERIFIED;
    await verifyCommand([doc, `${doc}.receipt.json`, ...flags()], ctx);
    assert.equal(process.exitCode, 0);
    assert.match(lines.at(-1)!, /^VERIFIED: .*doc\.txt existed at 2023-11-14T22:13:20\.000Z, sealed by CN=Jane Doe/);
    assert.ok(lines.some((l) => l.startsWith('✓ the signature by 1')));
    assert.ok(lines.some((l) => l.startsWith('? the identity server could not be asked')));
    const sent = stub.requests.filter((r) => r.url === '/v1/receipt/verify').at(-1)!.body as ChainpointReceipt;
    assert.equal(sent.type, 'ChainpointSHA256v2');
  });

  it('verify: NOT VERIFIED (exit 1) for another file, a broken signature or path, an unconfirmed transaction, an unreachable service', async () => {
    const receipt = JSON.parse(readFileSync(`${doc}.receipt.json`, 'utf8'));
    const other = path.join(dir, 'other.txt');
    writeFileSync(other, 'other');
    const badSig = path.join(dir, 'bad-sig.json');
    const forged = signHash(deps, { hashToSign: sha256Hex('something else') });
    writeFileSync(
      badSig,
      JSON.stringify({ ...receipt, signature: { ...receipt.signature, signature: (await forged).signature } }),
    );
    const badPath = path.join(dir, 'bad-path.json');
    writeFileSync(badPath, JSON.stringify({ ...receipt, proof: [{ left: 'cd'.repeat(32) }] }));
    const cases: [string[], object, RegExp][] = [
      [[other, `${doc}.receipt.json`], VERIFIED, /^NOT VERIFIED: the file's SHA-256/],
      [[doc, badSig], VERIFIED, /^NOT VERIFIED: targetHash is not the SHA-256 of the signature/],
      [[doc, badPath], VERIFIED, /^NOT VERIFIED: the Merkle proof does not lead/],
      [
        [doc, `${doc}.receipt.json`],
        { ...VERIFIED, code: 'TX_NOT_CONFIRMED', text: 'The transaction is not confirmed yet.' },
        /^NOT VERIFIED: TX_NOT_CONFIRMED/,
      ],
      [
        [doc, `${doc}.receipt.json`, '--api-url', 'http://127.0.0.1:9'],
        VERIFIED,
        /^NOT VERIFIED: cannot check the Bitcoin transaction: .*cannot be reached/,
      ],
    ];
    for (const [args, verification, verdict] of cases) {
      fresh();
      stub.verification = verification;
      await verifyCommand([...args, ...(args.includes('--api-url') ? flags().slice(2) : flags())], ctx);
      assert.equal(process.exitCode, 1, args.join(' '));
      assert.match(lines.at(-1)!, verdict);
    }
  });

  it('verify --json gives the verdict and every check', async () => {
    fresh();
    stub.verification = VERIFIED;
    await verifyCommand([doc, '--json', ...flags()], ctx);
    const v = JSON.parse(lines[0]!);
    assert.equal(v.verdict, 'VERIFIED');
    assert.deepEqual(
      v.checks.map((c: { name: string }) => c.name),
      ['file', 'signature', 'merkle', 'bitcoin', 'identity'],
    );
    assert.equal(v.confirmations, 3);
  });

  it('verify --rpc-url reads the transaction from a Bitcoin node: confirmed OP_RETURN of the root, else NOT VERIFIED', async () => {
    const receipt = JSON.parse(readFileSync(`${doc}.receipt.json`, 'utf8')) as ChainpointReceipt;
    let tx: object | null = null;
    const node = http.createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => {
        text += d.toString();
      });
      req.on('end', () => {
        const { id, method } = JSON.parse(text);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            method === 'getrawtransaction' && tx
              ? { result: tx, error: null, id }
              : { result: null, error: { code: -5, message: 'No such mempool or blockchain transaction' }, id },
          ),
        );
      });
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    const rpcUrl = `http://u:p@127.0.0.1:${(node.address() as AddressInfo).port}/`;
    const txOf = (root: string, confirmations: number) => ({
      txid: receipt.anchors[0]!.sourceId,
      hex: '00',
      confirmations,
      blockhash: confirmations > 0 ? 'ef'.repeat(32) : null,
      blocktime: 1_700_000_000,
      vout: [{ n: 0, value: 0, scriptPubKey: { hex: opReturnScript(Buffer.from(root, 'hex')).toString('hex') } }],
    });
    try {
      const cases: [object | null, number, RegExp][] = [
        [txOf(receipt.merkleRoot, 2), 0, /^VERIFIED: .* existed at 2023-11-14T22:13:20\.000Z/],
        [txOf(receipt.merkleRoot, 0), 1, /^NOT VERIFIED: TX_NOT_CONFIRMED: The transaction is not confirmed yet/],
        [txOf('cd'.repeat(32), 2), 1, /^NOT VERIFIED: TX_MISMATCH_RECEIPT: The transaction does not carry/],
        [null, 1, /^NOT VERIFIED: TX_NOT_FOUND: The transaction of the receipt is not found/],
      ];
      for (const [answer, code, verdict] of cases) {
        fresh();
        tx = answer;
        await verifyCommand([doc, '--rpc-url', rpcUrl], ctx);
        assert.equal(process.exitCode, code, lines.join('\n'));
        assert.match(lines.at(-1)!, verdict);
      }
    } finally {
      await new Promise((r) => node.close(r));
    }
  });

  it('receipt and find', async () => {
    fresh();
    const out = path.join(dir, 'r.json');
    await receiptCommand(['11111111-2222-4333-8444-555555555555', '--out', out, ...flags()], ctx);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).type, 'ChainpointSHA256v2');
    fresh();
    await findCommand([doc, ...flags()], ctx);
    assert.deepEqual(lines, ['11111111-2222-4333-8444-555555555555'], 'an id both queries answer is listed once');
    const fileHash = createHash('sha256').update(readFileSync(doc)).digest('hex');
    assert.deepEqual(
      stub.requests.slice(-2).map((r) => r.url),
      [`/v1/anchorids?signedHash=${fileHash}&page=0&size=100`, `/v1/anchorids?hash=${fileHash}&page=0&size=100`],
    );
  });

  it('refuses an empty file and a missing one before calling anything', async () => {
    fresh();
    const empty = path.join(dir, 'empty.txt');
    writeFileSync(empty, '');
    await assert.rejects(sealCommand([empty, ...flags()], ctx), { code: 'INVALID_HASH' });
    await assert.rejects(sealCommand([path.join(dir, 'missing'), ...flags()], ctx), { name: 'UsageError' });
  });
});
