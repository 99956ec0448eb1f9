// tier: slow (a bcoin regtest node)
/**
 * Woleet's own verification library (`@woleet/woleet-weblibs`, its Node build) run against our API:
 * `woleet.verify.WoleetDAB(fileHash)` asks `/anchorids?signedHash=` and `/anchorids?hash=`, fetches each
 * receipt and verifies it, reading the transaction from a block explorer. Here that explorer is answered
 * from the bcoin regtest node that carries the anchors (Bitcoin Core's `getrawtransaction` JSON, which is
 * the shape the library reads from Woleet's `/bitcoin/transaction/{txid}`), and every other request goes
 * to the app through `inject`. A real HTTP server sits in between because the library speaks HTTP itself.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../../src/app/anchoring/confirm-batches.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import { newSigner, randomHash } from '../../support/anchors.js';
import { startAnchoring, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { testApp, testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

/** The members of the library this test uses (it ships no usable types for its Node build). */
interface WoleetVerification {
  code: string;
  confirmations?: number;
  timestamp?: Date;
  receipt: { targetHash: string; signature?: { signedHash: string } };
}
interface Woleet {
  config: { setDefaultWoleetApiUrl(url: string): void; setDefaultTransactionProvider(p: string): void };
  verify: { WoleetDAB(hash: string): Promise<WoleetVerification[]> };
}

const woleet = createRequire(import.meta.url)('@woleet/woleet-weblibs') as Woleet;
const TX_PATH = /^\/v1\/bitcoin\/transaction\/([0-9a-f]{64})$/;
const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;

describe("Woleet's verification library against the API, transactions read from bcoin regtest", () => {
  let f: AnchoringFixture;
  let app: FastifyInstance;
  let server: Server;
  const asked: string[] = [];

  /** Block-explorer lookups from the node, the rest from the app. */
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    asked.push(url);
    const txid = TX_PATH.exec(url)?.[1];
    if (txid) {
      const tx = await f.chain.call<unknown>('getrawtransaction', [txid, 1]).catch(() => null);
      res.writeHead(tx ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(tx ?? {}));
      return;
    }
    const out = await app.inject({ method: 'GET', url });
    res.writeHead(out.statusCode, { 'content-type': 'application/json' }).end(out.body);
  }

  before(async () => {
    f = await startAnchoring(embedded, 1);
    app = await testApp(f.s.store, {
      deps: { chain: f.chain, jobs: f.jobs },
      config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }),
    });
    server = createServer((req, res) => void answer(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    woleet.config.setDefaultTransactionProvider('woleet.io');
    woleet.config.setDefaultWoleetApiUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await app?.close();
    await f?.close();
  });

  it('WoleetDAB lists each public anchor of a file once, verified against the chain', async () => {
    const account = await createAccount(f.deps, { email: 'woleet@example.com', password: 'correct horse battery' });
    const headers = { authorization: `Bearer ${(await createApiToken(f.deps, { accountId: account.id })).token}` };
    const create = async (body: object) => {
      const res = await app.inject({ method: 'POST', url: '/v1/anchor', headers, payload: body });
      assert.equal(res.statusCode, 200, res.body);
      return res.json<{ id: string; hash: string }>();
    };
    const signer = newSigner();
    const fileHash = randomHash();
    const signed = { signedHash: fileHash, signature: signer.sign(fileHash), pubKey: signer.address };
    const data = await create({ name: 'data', hash: fileHash });
    const signature = await create({ name: 'signed', ...signed });
    await create({ name: 'private', ...signed, public: false });
    await create({ name: 'another file', hash: randomHash() });

    await closeBatch(f.deps, { maxSize: 1000 });
    const [txid] = (await sendBatches(f.deps)).sent;
    await f.node.mine(1);
    await confirmBatches(f.deps);

    const results = await woleet.verify.WoleetDAB(fileHash);
    assert.ok(asked.includes(`/v1/anchorids?signedHash=${fileHash}`), asked.join('\n'));
    assert.ok(asked.includes(`/v1/anchorids?hash=${fileHash}`), asked.join('\n'));
    assert.ok(asked.includes(`/v1/bitcoin/transaction/${txid!}`), 'the transaction was read from the node');
    assert.deepEqual(
      results.map((r) => [r.code, r.confirmations, r.receipt.targetHash, r.receipt.signature?.signedHash]).sort(),
      [
        ['verified', 1, data.hash, undefined],
        ['verified', 1, signature.hash, fileHash],
      ].sort(),
      'the data anchor and the public signature anchor, each once; the private one never',
    );
    assert.equal(signature.hash, createHash('sha256').update(signed.signature).digest('hex'));
  });
});
