// tier: slow (measured: 12.3 s in a full CI run, over the 10 s bound of the fast tier)
/** POST /v1/receipt/verify through inject: every verification code, with a fake chain and a local identity server. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import type { ChainPort, RawTransactionInfo } from '../../../src/app/anchoring/chain.port.js';
import { opReturnScript } from '../../../src/core/bitcoin/op-return.js';
import {
  buildReceipt,
  signatureLeaf,
  type ChainpointReceipt,
  type ReceiptSignature,
} from '../../../src/core/chainpoint/receipt.js';
import { buildMerkleTree, merkleRoot, proofPath } from '../../../src/core/merkle/index.js';
import { messageToSign } from '../../../src/core/identity/identity-message.js';
import { testApp, testConfig } from '../../support/fixtures.js';
import { newSigner, randomHash, type Signer } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const BLOCK_TIME = 1_700_000_000;

/** A chain that knows the transactions put in `txs`. */
function fakeChain(txs: Map<string, RawTransactionInfo>): ChainPort {
  return { getRawTransaction: async (txid: string) => txs.get(txid) ?? null } as unknown as ChainPort;
}

function txCarrying(root: Buffer, confirmations: number): RawTransactionInfo {
  const txid = randomHash();
  return {
    txid,
    hex: '',
    confirmations,
    blockHash: confirmations > 0 ? randomHash() : null,
    blockTime: confirmations > 0 ? BLOCK_TIME : null,
    vout: [
      { n: 0, valueSat: 1000, scriptHex: '0014' + '00'.repeat(20) },
      { n: 1, valueSat: 0, scriptHex: opReturnScript(root).toString('hex') },
    ],
  };
}

/** A receipt of a signature among 4 random leaves, anchored by a new transaction in `txs`. */
function signedReceipt(
  signer: Signer,
  txs: Map<string, RawTransactionInfo>,
  extra: Partial<ReceiptSignature> = {},
  confirmations = 3,
): ChainpointReceipt {
  const signedHash = randomHash();
  const fields = { signedHash, ...extra };
  const signature: ReceiptSignature = {
    signedHash,
    pubKey: signer.address,
    signature: signer.sign(messageToSign(fields)),
    ...extra,
  };
  const leaves = [
    randomBytes(32),
    Buffer.from(signatureLeaf(signature.signature), 'hex'),
    randomBytes(32),
    randomBytes(32),
  ];
  const tree = buildMerkleTree(leaves);
  const tx = txCarrying(Buffer.from(merkleRoot(tree)), confirmations);
  txs.set(tx.txid, tx);
  return buildReceipt({
    targetHash: leaves[1]!.toString('hex'),
    merkleRoot: merkleRoot(tree).toString('hex'),
    proof: proofPath(tree, 1),
    txId: tx.txid,
    signature,
  });
}

for (const kind of kinds) {
  describe(`receipt verification on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let noChainApp: FastifyInstance;
    let idServer: http.Server;
    let idBase: string;
    const txs = new Map<string, RawTransactionInfo>();
    const signer = newSigner();
    const stranger = newSigner();

    const verify = (body: unknown, on = app) =>
      app === on
        ? app.inject({ method: 'POST', url: '/v1/receipt/verify', payload: body as object })
        : on.inject({ method: 'POST', url: '/v1/receipt/verify', payload: body as object });

    before(async () => {
      s = await kind.open();
      idServer = http.createServer((req, res) => {
        const url = new URL(req.url!, 'http://x');
        const mode = url.pathname.split('/')[1];
        const leftData = url.searchParams.get('leftData') ?? '';
        const identityURL = `${idBase}${url.pathname}`;
        if (mode === 'missing' || mode === 'broken') {
          res.writeHead(mode === 'missing' ? 404 : 500).end('{}');
          return;
        }
        const rightData = `${mode === 'liar' ? 'https://elsewhere.example' : identityURL}.${randomBytes(8).toString('hex')}`;
        const key = {
          name: 'seal',
          pubKey: url.searchParams.get('pubKey'),
          status: mode === 'revoked' ? 'revoked' : 'valid',
        };
        const by = mode === 'badsig' ? stranger : signer;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            identity: { commonName: 'Jane Doe', emailAddress: 'jane@acme.com' },
            key,
            rightData,
            signature: by.sign(leftData + rightData),
          }),
        );
      });
      await new Promise<void>((resolve) => idServer.listen(0, '127.0.0.1', resolve));
      idBase = `http://127.0.0.1:${(idServer.address() as AddressInfo).port}`;
      const config = testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' });
      app = await testApp(s.store, {
        config,
        deps: { chain: fakeChain(txs), httpClient: createSafeFetch({ allowPrivateUrls: true }) },
      });
      noChainApp = await testApp(s.store, { config });
    });
    after(async () => {
      await app?.close();
      await noChainApp?.close();
      await new Promise<void>((resolve) => idServer.close(() => resolve()));
      await s?.destroy();
    });

    it('VERIFIED: proof, signature, transaction, confirmations; timestamp from the block', async () => {
      const res = await verify(signedReceipt(signer, txs));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        code: 'VERIFIED',
        text: res.json().text,
        timestamp: BLOCK_TIME * 1000,
        confirmations: 3,
        timestampVerificationStatus: 'VERIFIED',
        signatureVerificationStatus: 'VERIFIED',
        identityVerificationStatus: null,
      });
    });

    it('INVALID_PROOF when a proof step is altered', async () => {
      const r = signedReceipt(signer, txs);
      r.proof[0] = 'left' in r.proof[0]! ? { left: randomHash() } : { right: randomHash() };
      assert.equal((await verify(r)).json().code, 'INVALID_PROOF');
    });

    it('SIGNATURE_MISMATCH_RECEIPT when targetHash is not the SHA-256 of the signature', async () => {
      const r = signedReceipt(signer, txs);
      const other = signedReceipt(signer, txs);
      const body = (await verify({ ...r, signature: other.signature })).json();
      assert.equal(body.code, 'INVALID_SIGNATURE');
      assert.equal(body.signatureVerificationStatus, 'SIGNATURE_MISMATCH_RECEIPT');
    });

    it('INVALID_SIGNATURE when the signed hash was changed', async () => {
      const r = signedReceipt(signer, txs);
      const body = (await verify({ ...r, signature: { ...r.signature!, signedHash: randomHash() } })).json();
      assert.equal(body.code, 'INVALID_SIGNATURE');
      assert.equal(body.signatureVerificationStatus, 'INVALID_SIGNATURE');
    });

    it('TX_NOT_FOUND, TX_MISMATCH_RECEIPT, TX_NOT_CONFIRMED', async () => {
      const unknown = { ...signedReceipt(signer, txs), anchors: [{ type: 'BTCOpReturn', sourceId: randomHash() }] };
      assert.equal((await verify(unknown)).json().code, 'TX_NOT_FOUND');
      const a = signedReceipt(signer, txs);
      const b = signedReceipt(signer, txs);
      assert.equal((await verify({ ...a, anchors: b.anchors })).json().code, 'TX_MISMATCH_RECEIPT');
      const pending = (await verify(signedReceipt(signer, txs, {}, 0))).json();
      assert.deepEqual([pending.code, pending.confirmations, pending.timestamp], ['TX_NOT_CONFIRMED', 0, null]);
    });

    it('TX_NOT_FOUND when no chain is wired', async () => {
      const body = (await verify(signedReceipt(signer, txs), noChainApp)).json();
      assert.equal(body.code, 'TX_NOT_FOUND');
      assert.equal(body.signatureVerificationStatus, 'VERIFIED');
    });

    it('a data receipt has no signature status', async () => {
      const leaves = [randomBytes(32), randomBytes(32), randomBytes(32)];
      const tree = buildMerkleTree(leaves);
      const tx = txCarrying(Buffer.from(merkleRoot(tree)), 7);
      txs.set(tx.txid, tx);
      const r = buildReceipt({
        targetHash: leaves[2]!.toString('hex'),
        merkleRoot: merkleRoot(tree).toString('hex'),
        proof: proofPath(tree, 2),
        txId: tx.txid,
      });
      const body = (await verify(r)).json();
      assert.deepEqual([body.code, body.signatureVerificationStatus, body.confirmations], ['VERIFIED', null, 7]);
    });

    const identityCases: [string, string, Partial<ReceiptSignature>][] = [
      [
        'identity',
        'VERIFIED',
        { signedIdentity: 'CN=Jane Doe,EMAILADDRESS=jane@acme.com', signedIssuerDomain: '127.0.0.1' },
      ],
      ['identity', 'VERIFIED', {}],
      ['identity', 'IDENTITY_MISMATCH', { signedIdentity: 'CN=John Roe' }],
      ['revoked', 'DEPRECATED_KEY', {}],
      ['missing', 'IDENTITY_NOT_FOUND', {}],
      ['broken', 'HTTP_ERROR', {}],
      ['liar', 'IDENTITY_MISMATCH', {}],
      ['badsig', 'INVALID_SIGNATURE', {}],
    ];
    for (const [mode, status, extra] of identityCases) {
      it(`identity ${status} (${mode}${extra.signedIdentity ? `, ${extra.signedIdentity}` : ''})`, async () => {
        const r = signedReceipt(signer, txs, { identityURL: `${idBase}/${mode}/identity`, ...extra });
        const body = (await verify(r)).json();
        assert.equal(body.signatureVerificationStatus, 'VERIFIED');
        assert.equal(body.identityVerificationStatus, status);
        assert.equal(body.code, 'VERIFIED');
      });
    }

    it('identity checks go through the safe fetch: a private identity URL is an HTTP_ERROR by default', async () => {
      const strictApp = await testApp(s.store, {
        deps: { chain: fakeChain(txs), httpClient: createSafeFetch({ allowPrivateUrls: false }) },
      });
      try {
        const r = signedReceipt(signer, txs, { identityURL: `${idBase}/identity/identity` });
        const body = (await strictApp.inject({ method: 'POST', url: '/v1/receipt/verify', payload: r })).json();
        assert.equal(body.identityVerificationStatus, 'HTTP_ERROR');
      } finally {
        await strictApp.close();
      }
    });

    it("the service's own identity server (its configured origin) is verified with private URLs refused", async () => {
      const ownApp = await testApp(s.store, {
        deps: {
          chain: fakeChain(txs),
          httpClient: createSafeFetch({ allowPrivateUrls: false, allowedOrigins: [idBase] }),
        },
      });
      try {
        const r = signedReceipt(signer, txs, { identityURL: `${idBase}/identity/identity` });
        const body = (await ownApp.inject({ method: 'POST', url: '/v1/receipt/verify', payload: r })).json();
        assert.equal(body.identityVerificationStatus, 'VERIFIED');
      } finally {
        await ownApp.close();
      }
    });

    for (const [what, body] of [
      ['a string', 'receipt'],
      ['an empty object', {}],
      ['an upper-case targetHash', { type: 'ChainpointSHA256v2', targetHash: 'A'.repeat(64) }],
      [
        'a proof step with two keys',
        {
          type: 'ChainpointSHA256v2',
          targetHash: randomHash(),
          merkleRoot: randomHash(),
          proof: [{ left: randomHash(), right: randomHash() }],
          anchors: [],
        },
      ],
    ] as [string, unknown][]) {
      it(`a malformed receipt (${what}) is 400 INVALID_RECEIPT`, async () => {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/receipt/verify',
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'INVALID_RECEIPT');
      });
    }
  });
}
