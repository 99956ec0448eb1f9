// tier: slow (a bcoin regtest node)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnchorTxInfo } from '../../../src/core/bitcoin/anchor-tx.js';
import { eventually, randomRoot, startFundedRegtest, type RegtestFixture } from '../../support/regtest-fixture.js';

const CAP = { maxFeeRateSatVb: 100, maxFeeSat: 50_000 };

/**
 * bcoin 1.0.2's mempool has no BIP-125: `replaceByFee` only lets signalling transactions in when
 * standardness is enforced, and any spend of an output already spent in the mempool is refused
 * ('bad-txns-inputs-spent') whatever its fee. So the replacement is shown here the way a miner confirms
 * it: in a block (built without the mempool, sent with submitblock); connecting that block evicts the
 * original from the mempool (bcoin's removeDoubleSpends). Against bitcoind the mempool would swap them.
 */
describe('fee bump (BIP-125) on bcoin regtest', () => {
  let f: RegtestFixture;
  let original: AnchorTxInfo;
  let replacement: AnchorTxInfo;

  before(async () => {
    f = await startFundedRegtest(1);
    original = await f.wallet.createAnchorTx(randomRoot(), 1);
    await f.chain.sendRawTransaction(original.hex);
    assert.ok(await eventually(() => f.chain.isInMempool(original.txid)), f.node.nodeErrors.join('; '));
  });
  after(() => f.node.stop());

  it('builds a replacement that spends the same inputs with a higher fee', async () => {
    replacement = await f.wallet.bumpAnchorTx(original, 5, CAP);
    assert.deepEqual(replacement.inputs, original.inputs);
    assert.ok(replacement.feeSat >= original.feeSat + replacement.vsize);
    assert.equal((await f.utxos.list('abandoned')).length, 1, 'the original change is abandoned');
  });

  it('bcoin answers the txid but its mempool refuses the replacement (no BIP-125 in bcoin 1.0.2)', async () => {
    const errorsBefore = f.node.nodeErrors.length;
    const txid = await f.chain.sendRawTransaction(replacement.hex);
    assert.equal(txid, replacement.txid, 'sendrawtransaction returns the txid even so');
    assert.ok(await eventually(async () => f.node.nodeErrors.length > errorsBefore), 'the rejection is reported');
    assert.match(f.node.nodeErrors.slice(errorsBefore).join('\n'), /bad-txns-inputs-spent/);
    assert.equal(await f.chain.isInMempool(replacement.txid), false);
    assert.equal(await f.chain.isInMempool(original.txid), true, 'the original stays');
  });

  it('a block holding the replacement is accepted and evicts the original from the mempool', async () => {
    const hash = await f.node.mineBlockWith([replacement.hex]);
    const block = (await f.chain.getBlock(hash))!;
    assert.deepEqual(block.txids.slice(1), [replacement.txid]);
    assert.equal(await f.chain.isInMempool(original.txid), false);
    assert.equal(await f.chain.getRawTransaction(original.txid), null, 'the original is gone');
    const seen = (await f.chain.getRawTransaction(replacement.txid))!;
    assert.equal(seen.confirmations, 1);
    assert.equal(seen.vout[0]!.scriptHex, original.opReturnScriptHex, 'same root anchored');
    assert.equal(await f.chain.getTxOut(original.txid, 1), null);
    assert.equal((await f.chain.getTxOut(replacement.txid, 1))!.valueSat, replacement.change!.valueSat);
  });

  it('the chain goes on: normal mining after the submitted block', async () => {
    await f.node.mine(5);
    assert.equal((await f.chain.getRawTransaction(replacement.txid))!.confirmations, 6);
  });

  it('refuses to bump past the fee cap', async () => {
    await assert.rejects(f.wallet.bumpAnchorTx(replacement, 200, CAP), /fee cap exceeded/);
  });
});
