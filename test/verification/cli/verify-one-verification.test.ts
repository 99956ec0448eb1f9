/**
 * One verification: `POST /v1/receipt/verify`, `proofseal verify` through the service and `proofseal verify
 * --rpc-url` give the same verdict on the same chain, including a transaction without the receipt's
 * OP_RETURN (where the CLI's own copy of the check once said NOT VERIFIED while the API went on to the
 * receipt's next transaction and said VERIFIED).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import type { ChainPort, RawTransactionInfo } from '../../../src/app/anchoring/chain.port.js';
import type { ClientContext } from '../../../src/cli/client-context.js';
import { verifyCommand } from '../../../src/cli/verify-command.js';
import { opReturnScript } from '../../../src/core/bitcoin/op-return.js';
import { buildReceipt, signatureLeaf, type ChainpointReceipt } from '../../../src/core/chainpoint/receipt.js';
import { messageToSign } from '../../../src/core/identity/identity-message.js';
import { testClientContext } from '../../support/client-context.js';
import { newSigner, randomHash } from '../../support/anchors.js';
import { testApp, testConfig } from '../../support/fixtures.js';

const txs = new Map<string, RawTransactionInfo>();
const chain = { getRawTransaction: async (txid: string) => txs.get(txid) ?? null } as unknown as ChainPort;

/** A confirmed transaction paying somewhere, with an OP_RETURN of `root` when given. */
function tx(root: string | null): string {
  const txid = randomHash();
  const pay = { n: 0, valueSat: 1000, scriptHex: '0014' + '00'.repeat(20) };
  const opReturn = root
    ? [{ n: 1, valueSat: 0, scriptHex: opReturnScript(Buffer.from(root, 'hex')).toString('hex') }]
    : [];
  txs.set(txid, {
    txid,
    hex: '',
    confirmations: 3,
    blockHash: randomHash(),
    blockTime: 1_700_000_000,
    vout: [pay, ...opReturn],
  });
  return txid;
}

describe('one verification: API, CLI through the service and CLI on a node agree', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-verify-'));
  const file = path.join(dir, 'doc.txt');
  const signer = newSigner();
  let opened: OpenedStore;
  let app: FastifyInstance;
  let apiUrl: string;
  let base: ChainpointReceipt;

  before(async () => {
    const content = `document ${randomBytes(8).toString('hex')}`;
    writeFileSync(file, content);
    const hash = createHash('sha256').update(content).digest('hex');
    const signature = signer.sign(messageToSign({ signedHash: hash }));
    const leaf = signatureLeaf(signature);
    base = buildReceipt({
      targetHash: leaf,
      merkleRoot: leaf,
      proof: [],
      txId: randomHash(),
      signature: { signedHash: hash, pubKey: signer.address, signature },
    });
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    app = await testApp(opened.store, {
      config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }),
      deps: { chain },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await app?.close();
    await opened?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const withAnchors = (...txids: string[]): ChainpointReceipt => ({
    ...base,
    anchors: txids.map((sourceId) => ({ sourceId, type: 'BTCOpReturn' as const })),
  });

  async function cli(receipt: ChainpointReceipt, how: string[]): Promise<{ verdict: string; code: string }> {
    const receiptFile = path.join(dir, `${randomHash()}.json`);
    writeFileSync(receiptFile, JSON.stringify(receipt));
    const lines: string[] = [];
    const ctx: ClientContext = testClientContext(dir, (l) => lines.push(l), { bitcoinNode: () => chain });
    try {
      await verifyCommand([file, receiptFile, '--json', ...how], ctx);
      const out = JSON.parse(lines[0]!) as { verdict: string; code: string };
      assert.equal(process.exitCode, out.verdict === 'VERIFIED' ? 0 : 1);
      return out;
    } finally {
      process.exitCode = undefined;
    }
  }

  const cases: [name: string, receipt: () => ChainpointReceipt, code: string][] = [
    ['a transaction carrying the root', () => withAnchors(tx(base.merkleRoot)), 'VERIFIED'],
    ['a transaction without the OP_RETURN', () => withAnchors(tx(null)), 'TX_MISMATCH_RECEIPT'],
    [
      'a transaction without the OP_RETURN, then one carrying the root',
      () => withAnchors(tx(null), tx(base.merkleRoot)),
      'VERIFIED',
    ],
    ['a transaction carrying another root', () => withAnchors(tx(randomHash())), 'TX_MISMATCH_RECEIPT'],
  ];
  for (const [name, make, code] of cases) {
    it(`${name}: ${code} from all three`, async () => {
      const receipt = make();
      const res = await app.inject({ method: 'POST', url: '/v1/receipt/verify', payload: receipt });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().code, code, 'POST /v1/receipt/verify');
      const verdict = code === 'VERIFIED' ? 'VERIFIED' : 'NOT_VERIFIED';
      const viaService = await cli(receipt, ['--api-url', apiUrl]);
      const viaNode = await cli(receipt, ['--rpc-url', 'http://u:p@127.0.0.1:9/']);
      assert.deepEqual([viaService.verdict, viaService.code], [verdict, code], 'proofseal verify (service)');
      assert.deepEqual([viaNode.verdict, viaNode.code], [verdict, code], 'proofseal verify --rpc-url');
    });
  }
});
