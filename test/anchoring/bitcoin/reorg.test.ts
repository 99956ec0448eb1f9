// tier: slow (a bcoin regtest node)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnchorTxInfo } from '../../../src/core/bitcoin/anchor-tx.js';
import { eventually, randomRoot, startFundedRegtest, type RegtestFixture } from '../../support/regtest-fixture.js';

describe('reorg on bcoin regtest: invalidateblock under a 1-confirmation anchor', () => {
  let f: RegtestFixture;
  let tx: AnchorTxInfo;
  let height = 0;
  let blockHash = '';

  before(async () => {
    f = await startFundedRegtest(1);
    tx = await f.wallet.createAnchorTx(randomRoot(), 2);
    await f.chain.sendRawTransaction(tx.hex);
    assert.ok(await eventually(() => f.chain.isInMempool(tx.txid)), f.node.nodeErrors.join('; '));
    [blockHash] = (await f.node.mine(1)) as [string];
    const seen = (await f.chain.getRawTransaction(tx.txid))!;
    assert.equal(seen.confirmations, 1);
    height = (await f.chain.getBlock(blockHash))!.height;
  });
  after(() => f.node.stop());

  it('after invalidateblock, the recorded height has no block (tip went back) and the tx is unconfirmed or gone', async (t) => {
    await f.node.invalidateBlock(blockHash);
    assert.equal(await f.chain.getBlockCount(), height - 1);
    assert.equal(await f.chain.getBlockHash(height), null);
    const header = await f.chain.getBlockHeader(blockHash);
    const raw = await f.chain.getRawTransaction(tx.txid);
    const inMempool = await f.chain.isInMempool(tx.txid);
    t.diagnostic(
      `invalidated block: header ${header ? `confirmations=${header.confirmations}` : 'unknown'}; ` +
        `getrawtransaction ${raw ? `confirmations=${raw.confirmations} blockhash=${raw.blockHash}` : 'null'}; in mempool: ${inMempool}`,
    );
    assert.ok(!raw || raw.confirmations === 0, 'not confirmed any more');
    assert.equal(await f.chain.getTxOut(tx.txid, 1), null, 'its change is not in the UTXO set');
  });

  it('mining on the other branch gives another hash at that height (how a reorg is detected)', async () => {
    const [other] = (await f.node.mine(1, f.wallet.address)) as [string];
    assert.notEqual(other, blockHash);
    assert.equal(await f.chain.getBlockHash(height), other);
    assert.ok(!(await f.chain.getBlock(other))!.txids.includes(tx.txid));
  });

  it('rebroadcasting the same signed tx is accepted, and it confirms again in a new block', async () => {
    const txid = await f.chain.sendRawTransaction(tx.hex);
    assert.equal(txid, tx.txid);
    assert.ok(await eventually(() => f.chain.isInMempool(tx.txid)), f.node.nodeErrors.join('; '));
    const [next] = (await f.node.mine(1)) as [string];
    const seen = (await f.chain.getRawTransaction(tx.txid))!;
    assert.equal(seen.blockHash, next);
    assert.equal(seen.confirmations, 1);
    assert.equal((await f.chain.getBlock(next))!.height, height + 1);
  });
});
