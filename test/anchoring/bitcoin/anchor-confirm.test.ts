// tier: slow (a bcoin regtest node)
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import { DomainError } from '../../../src/core/errors.js';
import { AnchoringWallet } from '../../../src/adapters/chain/anchoring-wallet.js';
import { eventually, randomRoot, startFundedRegtest, type RegtestFixture } from '../../support/regtest-fixture.js';
import { MemoryUtxoStore } from '../../support/memory-utxo-store.js';

const sha256d = (b: Uint8Array) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** Bitcoin's block merkle root from txids in RPC (reversed) order; odd levels duplicate the last hash. */
function blockMerkleRoot(txids: string[]): string {
  let level: Buffer[] = txids.map((id) => Buffer.from(id, 'hex').reverse());
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(Buffer.concat([level[i]!, level[i + 1] ?? level[i]!])));
    level = next;
  }
  return Buffer.from(level[0]!).reverse().toString('hex');
}

describe('anchoring on bcoin regtest: fund, anchor, confirm', () => {
  let f: RegtestFixture;
  const root = randomRoot();
  let txid = '';
  let blockHash = '';

  before(async () => {
    f = await startFundedRegtest(1);
  });
  after(() => f.node.stop());

  it('starts, activates segwit and funds the key (timings)', async (t) => {
    t.diagnostic(
      `node start ${f.timings.startMs.toFixed(0)} ms; mining 0→432 ${f.timings.segwitMs.toFixed(0)} ms; fund (1 + 100 blocks, import) ${f.timings.fundMs.toFixed(0)} ms`,
    );
    assert.equal(await f.chain.getBlockCount(), 432 + 1 + 100);
    assert.match(f.wallet.address, /^bcrt1q/);
    assert.equal((await f.utxos.list('available')).length, 1);
    assert.equal(await f.wallet.balanceSat(), 12.5e8, 'coinbase of block 433: regtest halves every 150 blocks');
  });

  it('builds, broadcasts and gets an anchor tx into the mempool', async () => {
    const tx = await f.wallet.createAnchorTx(root, 2);
    txid = await f.chain.sendRawTransaction(tx.hex);
    assert.equal(txid, tx.txid);
    assert.ok(await eventually(() => f.chain.isInMempool(txid)), `mempool refused it: ${f.node.nodeErrors.join('; ')}`);
    assert.equal((await f.utxos.list('reserved')).length, 1);
    assert.equal((await f.chain.getRawTransaction(txid))!.confirmations, 0);
    assert.equal((await f.chain.getTxOut(txid, 1))!.confirmations, 0, 'change is in the mempool');
  });

  it('confirms: 1 block, then 5 more → 6 confirmations, OP_RETURN read back', async () => {
    [blockHash] = (await f.node.mine(1)) as [string];
    assert.equal((await f.chain.getRawTransaction(txid))!.confirmations, 1);
    await f.node.mine(5);
    const tx = (await f.chain.getRawTransaction(txid))!;
    assert.equal(tx.confirmations, 6);
    assert.equal(tx.blockHash, blockHash);
    assert.equal(tx.vout[0]!.scriptHex, '6a20' + hex.encode(root));
    assert.equal(tx.vout[0]!.valueSat, 0);
    const decoded = Transaction.fromRaw(hex.decode(tx.hex), { allowUnknownOutputs: true });
    assert.deepEqual(decoded.getOutput(0).script, hex.decode('6a20' + hex.encode(root)));
    assert.equal(tx.blockTime, (await f.chain.getBlockHeader(blockHash))!.time);
  });

  it('lists the txids of the block holding the anchor (for OpenTimestamps branches)', async () => {
    const block = (await f.chain.getBlock(blockHash))!;
    assert.equal(block.txids.length, 2);
    assert.equal(block.txids[1], txid);
    assert.equal(blockMerkleRoot(block.txids), block.merkleRoot, 'txid list is complete and in block order');
    assert.equal(await f.chain.getBlockHash(block.height), blockHash);
  });

  it('spends the confirmed change in the next anchor and marks spent coins', async () => {
    const tx = await f.wallet.createAnchorTx(randomRoot(), 1);
    assert.deepEqual(
      tx.inputs.map((u) => `${u.txid}:${u.vout}`),
      [`${txid}:1`],
      'the only coin left is the change',
    );
    await f.chain.sendRawTransaction(tx.hex);
    assert.ok(await eventually(() => f.chain.isInMempool(tx.txid)), f.node.nodeErrors.join('; '));
    await f.node.mine(1);
    await f.wallet.markConfirmed(tx);
    assert.equal((await f.chain.getRawTransaction(tx.txid))!.confirmations, 1);
  });

  it('re-opens the same key from the sealed vault; a wrong SECRET_KEY cannot', async () => {
    assert.ok(f.vault.sealed?.startsWith('v1.'));
    const again = await AnchoringWallet.open({
      chain: f.chain,
      vault: f.vault,
      utxos: new MemoryUtxoStore(),
      network: 'regtest',
      secretKey: 'test-secret',
    });
    assert.equal(again.address, f.wallet.address);
    const mainnet = await AnchoringWallet.open({
      chain: f.chain,
      vault: f.vault,
      utxos: new MemoryUtxoStore(),
      network: 'mainnet',
      secretKey: 'test-secret',
    });
    assert.match(mainnet.address, /^bc1q/);
    await assert.rejects(
      AnchoringWallet.open({
        chain: f.chain,
        vault: f.vault,
        utxos: new MemoryUtxoStore(),
        network: 'regtest',
        secretKey: 'wrong',
      }),
      (err: unknown) => err instanceof DomainError && err.code === 'UNAUTHORIZED',
    );
  });

  it('imports only outputs paying our address, and nothing for a spent or unknown deposit', async () => {
    const store = new MemoryUtxoStore();
    const w = await AnchoringWallet.open({
      chain: f.chain,
      vault: f.vault,
      utxos: store,
      network: 'regtest',
      secretKey: 'test-secret',
    });
    assert.deepEqual(await w.importDeposit(txid), [], 'the first anchor’s change is spent by now');
    await assert.rejects(
      w.importDeposit('cd'.repeat(32)),
      (err: unknown) => err instanceof DomainError && err.code === 'NOT_FOUND',
    );
  });
});
