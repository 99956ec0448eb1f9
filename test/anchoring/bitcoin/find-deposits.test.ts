// tier: slow (a bcoin regtest node)
/**
 * The worker finds deposits itself (issue 7): coins sent to the anchoring address from another wallet
 * are picked up as blocks arrive, without `proofseal wallet import`; the raw block parser agrees with
 * the node; bcoin's missing `scantxoutset` is reported, not hidden.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import { AnchoringWallet } from '../../../src/adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from '../../../src/adapters/chain/bitcoin-rpc.js';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { DEPOSIT_CURSOR_KEY, findDeposits, type FindDepositsDeps } from '../../../src/app/anchoring/find-deposits.js';
import { BITCOIN_NETWORKS } from '../../../src/core/bitcoin/anchor-tx.js';
import { outputsPaying, parseRawBlock } from '../../../src/core/bitcoin/raw-block.js';
import { MemoryKeyVault } from '../../support/memory-key-vault.js';
import { eventually } from '../../support/regtest-fixture.js';

const SCAN = { maxBlocks: 100, rewindDepth: 10 };

/** Another wallet: a key of the test's own, funded with a matured coinbase, that pays any address. */
async function otherWallet(node: EmbeddedRegtest) {
  const key = secp256k1.utils.randomSecretKey();
  const payment = p2wpkh(secp256k1.getPublicKey(key, true), BITCOIN_NETWORKS.regtest);
  const [coinbase] = await node.fund(payment.address!, 1);
  const { vout } = (await node.rpc.getRawTransaction(coinbase!))!;
  const value = BigInt(vout[0]!.valueSat);
  return {
    /** Signs and sends a transaction paying `amountSat` to `address`; returns its txid and bytes. */
    async pay(address: string, amountSat: number): Promise<{ txid: string; hex: string }> {
      const tx = new Transaction();
      tx.addInput({ txid: coinbase!, index: 0, witnessUtxo: { script: payment.script, amount: value } });
      tx.addOutputAddress(address, BigInt(amountSat), BITCOIN_NETWORKS.regtest);
      tx.addOutputAddress(payment.address!, value - BigInt(amountSat) - 1000n, BITCOIN_NETWORKS.regtest);
      tx.sign(key);
      tx.finalize();
      return { txid: await node.rpc.sendRawTransaction(tx.hex), hex: tx.hex };
    },
  };
}

describe('the worker finds deposits to the anchoring address', () => {
  let node: EmbeddedRegtest;
  let opened: OpenedStore;
  let wallet: AnchoringWallet;
  let deps: FindDepositsDeps;

  before(async () => {
    node = await EmbeddedRegtest.start();
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    const chain = new BitcoinRpcClient({ url: node.rpcUrl });
    wallet = await AnchoringWallet.open({
      chain,
      vault: new MemoryKeyVault(),
      utxos: opened.store.utxos,
      network: 'regtest',
      secretKey: 'deposit test secret',
    });
    deps = { store: opened.store, clock: { now: Date.now }, chain, wallet };
  });
  after(async () => {
    await opened?.close();
    await node?.stop();
  });

  it('first pass: bcoin has no scantxoutset, which is said, and the scan starts at the tip', async () => {
    const first = await findDeposits(deps, SCAN);
    assert.equal(first.utxoSetScan, 'unsupported');
    assert.equal(first.height, await node.rpc.getBlockCount());
    assert.deepEqual(first.found, []);
    const cursor = JSON.parse((await opened.store.settings.get(DEPOSIT_CURSOR_KEY))!) as { height: number };
    assert.equal(cursor.height, first.height);
  });

  it('a payment from another wallet, mined, is picked up without wallet import; a second pass finds nothing new', async () => {
    const sender = await otherWallet(node);
    await findDeposits(deps, SCAN); // past the sender's own funding blocks
    const { txid } = await sender.pay(wallet.address, 25_000_000);
    assert.deepEqual((await findDeposits(deps, SCAN)).found, [], 'nothing before the block');
    const [block] = await node.mine(1);
    const scan = await findDeposits(deps, SCAN);
    assert.equal(scan.blocks, 1);
    assert.deepEqual(
      scan.found.map((r) => [r.txid, r.vout, r.valueSat]),
      [[txid, 0, 25_000_000]],
    );
    assert.equal(await wallet.balanceSat(), 25_000_000);
    assert.deepEqual((await findDeposits(deps, SCAN)).found, []);
    // The block parser agrees with the node on the block's transactions.
    const parsed = parseRawBlock((await deps.chain.getBlockHex(block!))!);
    assert.deepEqual(
      parsed.map((t) => t.txid),
      (await deps.chain.getBlock(block!))!.txids,
    );
    assert.equal(outputsPaying(parsed, wallet.scriptHex).length, 1);
  });

  it('after a reorg the scan goes back before the fork and reads the new branch', async () => {
    const sender = await otherWallet(node);
    await findDeposits(deps, SCAN);
    const before = await wallet.balanceSat();
    const { txid, hex: raw } = await sender.pay(wallet.address, 10_000_000);
    assert.ok(await eventually(() => deps.chain.isInMempool(txid)), 'bcoin takes it into its mempool after answering');
    const [orphan] = await node.mine(1);
    assert.deepEqual(
      (await findDeposits(deps, SCAN)).found.map((r) => r.txid),
      [txid],
    );
    await node.invalidateBlock(orphan!);
    await node.mine(1);
    await node.mineBlockWith([raw]); // the deposit again, one block higher on the new branch
    const tip = await node.rpc.getBlockCount();
    const scan = await findDeposits(deps, SCAN);
    assert.equal(scan.height, tip);
    assert.equal(scan.blocks, SCAN.rewindDepth + 1, 'read again from rewindDepth blocks below the orphan');
    assert.equal(await wallet.balanceSat(), before + 10_000_000, 'the deposit counted once');
    assert.equal((await wallet.spendable()).length > 0, true);
  });

  it('an unknown block or a cut block is refused by the parser', () => {
    assert.throws(() => parseRawBlock('00'.repeat(80)), { code: 'BAD_REQUEST' });
    assert.throws(() => parseRawBlock(`${'00'.repeat(80)}01${'01000000'}`), { code: 'BAD_REQUEST' });
  });
});
