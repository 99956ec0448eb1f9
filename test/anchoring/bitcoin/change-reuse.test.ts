// tier: slow (a bcoin regtest node)
/**
 * The wallet spends the change of its own transactions once they are in a block. bcoin's gettxout does not
 * see spends in its mempool, so only the `reserved` status keeps a coin from being spent twice. Found by the
 * crash cycles (docs/hardening.md): the send job spent a fresh change before the confirm job recorded its
 * first confirmation, which then made the coin `available` again; the next batch spent it a second time,
 * the node kept neither copy, and the batch was sent again forever because its input's parent was ours.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../../src/app/anchoring/confirm-batches.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import { startAnchoring, until, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`the change of the wallet's own transactions on ${kind.name}`, { skip: kind.skip }, () => {
    let f: AnchoringFixture;
    let accountId = '';
    before(async () => {
      f = await startAnchoring(kind, 1, { confirmationsRequired: 1 });
      accountId = (await createAccount(f.deps, { email: 'change@example.com', password: 'pw pw pw pw' })).id;
    });
    after(async () => f?.close());

    /** Closes a batch of two fresh anchors and sends it; the txid, or null when nothing could pay. */
    const closeAndSend = async (inMempool = true): Promise<{ batchId: string; txid: string | null }> => {
      await insertDataAnchors(f.s.db, accountId, randomLeaves(2), 'change');
      const { batchId } = (await closeBatch(f.deps, { maxSize: 1000 }))!;
      const { sent } = await sendBatches(f.deps);
      if (sent[0] && inMempool) await until(() => f.chain.isInMempool(sent[0]!), `${sent[0]} in the mempool`);
      return { batchId, txid: sent[0] ?? null };
    };
    const coinStatus = async (txid: string, vout: number) =>
      (await f.s.db.query<{ status: string }>('SELECT status FROM utxo WHERE txid = $1 AND vout = $2', [txid, vout]))[0]
        ?.status;
    const spenders = async (txid: string, vout: number) =>
      (
        await f.s.db.query<{ txid: string }>(
          `SELECT txid FROM btc_tx WHERE status <> 'ABANDONED' AND inputs @> $1::jsonb`,
          [JSON.stringify([{ txid, vout }])],
        )
      ).map((r) => r.txid);

    it('a change spent before its first confirmation is recorded stays reserved: never spent twice', async () => {
      const first = await closeAndSend();
      const change = (await f.s.store.btcTxs.findByTxid(first.txid!))!.change!;
      await f.node.mine(1);
      const second = await closeAndSend();
      assert.ok(second.txid, 'the change, in a block, pays for the next batch');
      assert.deepEqual(await spenders(change.txid, change.vout), [second.txid]);

      await confirmBatches(f.deps);
      assert.equal(await coinStatus(change.txid, change.vout), 'reserved', 'recording the confirmation left it chosen');
      const third = await closeAndSend();
      assert.equal(third.txid, null, 'no coin left to pay for a third batch until the second confirms');
      assert.deepEqual(await spenders(change.txid, change.vout), [second.txid], 'spent once');
      await f.node.mine(1);
      await confirmBatches(f.deps);
      assert.ok((await sendBatches(f.deps)).sent.length === 1, "the second's change pays for the third");
    });

    it('a batch whose transaction lost its input to another of ours goes back to WAIT and is sent again', async () => {
      await f.node.mine(1);
      await confirmBatches(f.deps);
      const first = await closeAndSend();
      const coin = (await f.s.store.btcTxs.findByTxid(first.txid!))!.inputs[0]!;
      // What the old confirmation bookkeeping did: the coin the first transaction spends made available again.
      await f.s.store.utxos.setStatus([coin], 'available');
      const second = await closeAndSend(false);
      assert.deepEqual((await f.s.store.btcTxs.findByTxid(second.txid!))!.inputs, [coin], 'spent a second time');
      assert.equal(await f.chain.locateTransaction(second.txid!), null, 'the node keeps only one of the two');
      await f.node.mine(1);
      const { abandoned } = await confirmBatches(f.deps);
      assert.deepEqual(abandoned, [second.batchId], 'its input is gone for good: no endless re-broadcast');
      const resent = (await sendBatches(f.deps)).sent;
      assert.equal(resent.length, 1, 'sent again with another coin');
      await until(() => f.chain.isInMempool(resent[0]!), 'the new transaction in the mempool');
      await f.node.mine(1);
      await confirmBatches(f.deps);
      assert.equal((await f.s.store.batches.findById(second.batchId))!.status, 'CONFIRMED');
    });
  });
}
