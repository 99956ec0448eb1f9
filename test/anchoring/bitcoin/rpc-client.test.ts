import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import { BitcoinRpcClient, ChainRpcError } from '../../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { checkKept, sendOnce } from '../../../src/app/anchoring/broadcast-anchor-tx.js';

const sha256d = (b: Buffer) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
const isCode = (code: string) => (err: unknown) => err instanceof DomainError && err.code === code;

describe('BitcoinRpcClient against bcoin regtest', () => {
  let node: EmbeddedRegtest;
  let chain: BitcoinRpcClient;

  before(async () => {
    node = await EmbeddedRegtest.start({ activateSegwit: false });
    chain = new BitcoinRpcClient({ url: node.rpcUrl });
    await node.mine(3);
  });
  after(() => node.stop());

  it('reads the tip, hashes, headers and blocks', async () => {
    assert.equal(await chain.getBlockCount(), 3);
    const hash = (await chain.getBlockHash(2))!;
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(await chain.getBlockHash(4), null);
    const header = (await chain.getBlockHeader(hash))!;
    assert.equal(header.height, 2);
    assert.equal(header.confirmations, 2);
    assert.equal(header.bits, '207fffff');
    assert.equal(header.previousBlockHash, await chain.getBlockHash(1));
    const raw = Buffer.from((await chain.getBlockHeaderHex(hash))!, 'hex');
    assert.equal(raw.length, 80);
    assert.equal(Buffer.from(sha256d(raw)).reverse().toString('hex'), hash, 'the 80 bytes hash to the block hash');
    const block = (await chain.getBlock(hash))!;
    assert.equal(block.txids.length, 1);
    assert.equal(block.merkleRoot, header.merkleRoot);
  });

  it('answers null / false for what the node does not know', async () => {
    const unknown = 'ab'.repeat(32);
    assert.equal(await chain.getBlockHeader(unknown), null);
    assert.equal(await chain.getBlockHeaderHex(unknown), null);
    assert.equal(await chain.getBlock(unknown), null);
    assert.equal(await chain.getRawTransaction(unknown), null);
    assert.equal(await chain.isInMempool(unknown), false);
    assert.equal(await chain.getTxOut(unknown, 0), null);
  });

  it('reads a coinbase output with gettxout and getrawtransaction', async () => {
    const block = (await chain.getBlock((await chain.getBlockHash(1))!))!;
    const tx = (await chain.getRawTransaction(block.txids[0]!))!;
    assert.equal(tx.confirmations, 3);
    assert.equal(tx.blockHash, block.hash);
    assert.equal(tx.vout[0]!.valueSat, 50e8);
    const out = (await chain.getTxOut(block.txids[0]!, 0))!;
    assert.deepEqual(
      [out.valueSat, out.coinbase, out.confirmations, out.scriptHex],
      [50e8, true, 3, tx.vout[0]!.scriptHex],
    );
  });

  it('reports network info and no fee estimate (bcoin answers -1)', async () => {
    const info = await chain.getNetworkInfo();
    assert.equal(info.network, 'regtest');
    assert.equal(info.blocks, 3);
    assert.equal(info.relayFeeSatVb, 1);
    assert.match(info.subversion, /bcoin/);
    assert.equal(await chain.estimateFeeRate(6), null);
  });

  it('maps JSON-RPC errors that bcoin sends with HTTP 200', async () => {
    await assert.rejects(
      chain.call('nosuchmethod'),
      (err: unknown) => err instanceof ChainRpcError && err.rpcCode === -32601,
    );
    await assert.rejects(
      chain.sendRawTransaction('zz'),
      (err: unknown) => err instanceof ChainRpcError && err.code === 'BAD_REQUEST',
    );
  });

  it('refuses wrong credentials without printing them', async () => {
    const url = node.rpcUrl.replace(/:[0-9a-f]+@/, ':not-the-key@');
    const bad = new BitcoinRpcClient({ url });
    await assert.rejects(
      bad.getBlockCount(),
      (err: unknown) =>
        isCode('CHAIN_UNAVAILABLE')(err) &&
        !(err as Error).message.includes('not-the-key') &&
        /credentials/.test((err as Error).message),
    );
    assert.ok(!bad.redactedUrl.includes('not-the-key'));
  });
});

describe('BitcoinRpcClient transport (injected fetch)', () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

  it('maps Bitcoin Core errors sent with HTTP 500, and -5 to null', async () => {
    const chain = new BitcoinRpcClient({
      url: 'http://u:p@127.0.0.1:1/',
      fetch: async () =>
        json(500, { result: null, error: { code: -5, message: 'No such mempool or blockchain transaction' }, id: 1 }),
    });
    assert.equal(await chain.getRawTransaction('ab'.repeat(32)), null);
    assert.equal(await chain.isInMempool('ab'.repeat(32)), false);
  });

  it('sends Basic auth from the URL and reads Core-style estimatesmartfee', async () => {
    let auth = '';
    const chain = new BitcoinRpcClient({
      url: 'http://alice:s%3Acret@127.0.0.1:1/wallet/x',
      fetch: async (_url, init) => {
        auth = new Headers(init?.headers).get('authorization') ?? '';
        return json(200, { result: { feerate: 0.00012, blocks: 6 }, error: null, id: 1 });
      },
    });
    assert.equal(await chain.estimateFeeRate(6), 12);
    assert.equal(Buffer.from(auth.replace('Basic ', ''), 'base64').toString(), 'alice:s:cret');
    assert.equal(chain.redactedUrl, 'http://127.0.0.1:1/wallet/x');
  });

  it('retries reads with backoff on transport failures, never sendrawtransaction', async () => {
    let calls = 0;
    const chain = new BitcoinRpcClient({
      url: 'http://u:secret@127.0.0.1:1/',
      retries: 2,
      backoffMs: 1,
      fetch: async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
    });
    await assert.rejects(
      chain.getBlockCount(),
      (err: unknown) => isCode('CHAIN_UNAVAILABLE')(err) && !(err as Error).message.includes('secret'),
    );
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(chain.sendRawTransaction('00'), isCode('CHAIN_UNAVAILABLE'));
    assert.equal(calls, 1);
  });

  it('times out through AbortSignal', async () => {
    const chain = new BitcoinRpcClient({
      url: 'http://127.0.0.1:1/',
      timeoutMs: 50,
      retries: 0,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    });
    const keepAlive = setTimeout(() => undefined, 5_000); // AbortSignal.timeout's timer does not hold the event loop
    await assert.rejects(
      chain.getBlockCount(),
      (err: unknown) => isCode('CHAIN_UNAVAILABLE')(err) && /timed out/.test((err as Error).message),
    );
    clearTimeout(keepAlive);
  });

  /** A Bitcoin Core-like node answering each method with `answers[method]` (a result, or an error to send). */
  function stubNode(answers: Record<string, (params: unknown[]) => unknown>) {
    const calls: string[] = [];
    const chain = new BitcoinRpcClient({
      url: 'http://u:p@127.0.0.1:1/',
      retries: 0,
      fetch: async (_url, init) => {
        const { method, params, id } = JSON.parse(String(init?.body)) as {
          method: string;
          params: unknown[];
          id: number;
        };
        calls.push(method);
        const out = answers[method]?.(params);
        if (out instanceof Error) {
          const [code, message] = out.message.split('|') as [string, string];
          return json(500, { result: null, error: { code: Number(code), message }, id });
        }
        return json(200, { result: out ?? null, error: null, id });
      },
    });
    return { chain, calls };
  }
  const notFound = () => new Error('-5|No such mempool or blockchain transaction');
  const txid = 'cd'.repeat(32);
  const rawTx = (confirmations: number) => ({ txid, hex: '00', confirmations, blockhash: 'ef'.repeat(32), vout: [] });

  it('locates a transaction in the mempool, in the chain, or nowhere', async () => {
    const inMempool = stubNode({ getmempoolentry: () => ({ vsize: 200 }) });
    assert.equal(await inMempool.chain.locateTransaction(txid), 'mempool');
    const mined = stubNode({ getmempoolentry: notFound, getrawtransaction: () => rawTx(3) });
    assert.equal(await mined.chain.locateTransaction(txid), 'chain');
    const nowhere = stubNode({ getmempoolentry: notFound, getrawtransaction: notFound });
    assert.equal(await nowhere.chain.locateTransaction(txid), null);
    assert.deepEqual(nowhere.calls, ['getmempoolentry', 'getrawtransaction'], 'asked once without waitMs');
  });

  it('asks again within waitMs until the node holds it (bcoin takes it after answering sendrawtransaction)', async () => {
    let asked = 0;
    const late = stubNode({
      getmempoolentry: () => (++asked < 3 ? notFound() : { vsize: 200 }),
      getrawtransaction: notFound,
    });
    assert.equal(await late.chain.locateTransaction(txid, 5_000), 'mempool');
    assert.equal(asked, 3);
    const never = stubNode({ getmempoolentry: notFound, getrawtransaction: notFound });
    const started = performance.now();
    assert.equal(await never.chain.locateTransaction(txid, 150), null);
    assert.ok(performance.now() - started >= 140, 'gave up only after waitMs');
    assert.ok(never.calls.length > 2, `asked ${never.calls.length / 2} times`);
  });

  it('a broadcast the node answered but does not hold is reported with the reason, or none when held', async () => {
    const tx = { txid, batchId: 'b1' };
    const refusing = stubNode({
      sendrawtransaction: () => new Error('-26|min relay fee not met, 100 < 150'),
      getmempoolentry: notFound,
      getrawtransaction: notFound,
    });
    const refusal = await sendOnce(refusing, '00');
    assert.match(refusal!, /min relay fee not met/);
    assert.deepEqual(await checkKept(refusing, tx, refusal), { txid, batchId: 'b1', reason: refusal });
    assert.deepEqual(
      refusing.calls,
      ['sendrawtransaction', 'getmempoolentry', 'getrawtransaction'],
      'no wait after a refusal',
    );
    const silent = stubNode({ sendrawtransaction: () => txid, getmempoolentry: notFound, getrawtransaction: notFound });
    assert.equal(await sendOnce(silent, '00'), null);
    const lost = await checkKept(silent, tx, null);
    assert.match(lost!.reason, /answered sendrawtransaction without an error, then held it in neither/);
    const known = stubNode({
      sendrawtransaction: () => new Error('-27|Transaction already in block chain'),
      getmempoolentry: notFound,
      getrawtransaction: () => rawTx(1),
    });
    assert.equal(await checkKept(known, tx, await sendOnce(known, '00')), null, 'refused as known, yet held');
    const down = stubNode({ sendrawtransaction: () => new Error('-28|Loading block index') });
    await assert.rejects(sendOnce(down, '00'), isCode('CHAIN_UNAVAILABLE'));
  });

  it('treats an HTTP error without a JSON-RPC body as unavailable', async () => {
    const chain = new BitcoinRpcClient({
      url: 'http://127.0.0.1:1/',
      retries: 0,
      fetch: async () => new Response('busy', { status: 503 }),
    });
    await assert.rejects(chain.getBlockCount(), isCode('CHAIN_UNAVAILABLE'));
  });
});

describe('EmbeddedRegtest helpers', () => {
  it('starts with segwit active by default (tip 432) and mines fast', async (t) => {
    let time = performance.now();
    const node = await EmbeddedRegtest.start();
    const startMs = performance.now() - time;
    try {
      const chain = new BitcoinRpcClient({ url: node.rpcUrl });
      assert.equal(await chain.getBlockCount(), 432);
      time = performance.now();
      await node.mine(101);
      const mine101Ms = performance.now() - time;
      time = performance.now();
      await node.mine(450);
      t.diagnostic(
        `start incl. 432 blocks ${startMs.toFixed(0)} ms; 101 blocks ${mine101Ms.toFixed(0)} ms; 450 blocks ${(performance.now() - time).toFixed(0)} ms`,
      );
      assert.equal(await chain.getBlockCount(), 983);
    } finally {
      await node.stop();
    }
  });

  it('mines on its timer until stopped; stop waits for the block being mined', async () => {
    const node = await EmbeddedRegtest.start({ activateSegwit: false });
    try {
      const chain = new BitcoinRpcClient({ url: node.rpcUrl });
      const miner = node.autoMine(30);
      await node.waitForHeight(2);
      await miner.stop();
      const stopped = await chain.getBlockCount();
      assert.ok(stopped >= 2);
      await node.mine(1);
      assert.equal(await chain.getBlockCount(), stopped + 1, 'only the block asked for after stop');
    } finally {
      await node.stop();
    }
  });

  it('waitForHeight resolves on the chain event of that height, at once when already there', async () => {
    const node = await EmbeddedRegtest.start({ activateSegwit: false });
    try {
      await node.waitForHeight(0);
      let reached = false;
      const waiting = node.waitForHeight(2).then(() => (reached = true));
      await node.mine(1);
      assert.equal(reached, false, 'height 1 is not 2');
      await node.mine(1);
      await waiting;
      assert.equal(reached, true);
    } finally {
      await node.stop();
    }
  });
});
