// tier: slow (a bcoin regtest node)
/**
 * Batching in Bitcoin on the real embedded bcoin node and both stores: a file sealed through HTTP
 * (inject) goes WAIT → SENT → CONFIRMED and its receipt passes the independent verifier and its .ots
 * passes python-opentimestamps; a reorg under a confirmed-once batch; a stuck transaction replaced
 * with a higher fee (BIP-125) and confirmed as the replacement.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../../src/app/anchoring/confirm-batches.js';
import { DELIVER_CALLBACK } from '../../../src/app/anchoring/enqueue-anchor-callbacks.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import { verifyReceiptIndependently, type ReceiptLike } from '../../support/independent-verifier.js';
import { newSigner, randomHash } from '../../support/anchors.js';
import {
  checkOts,
  otsCheckerAvailable,
  startAnchoring,
  txidsCarrying,
  until,
  type AnchoringFixture,
} from '../../support/anchoring-fixture.js';
import { testApp, testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();
const otsAvailable = await otsCheckerAvailable();

for (const kind of kinds) {
  describe(`anchoring on bcoin regtest, ${kind.name} store`, { skip: kind.skip }, () => {
    let f: AnchoringFixture;
    let app: FastifyInstance;
    let auth: { authorization: string };
    const signer = newSigner();

    const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: auth, ...(payload && { payload }) });
    const anchorOf = async (id: string) =>
      (await inject('GET', `/v1/anchor/${id}`)).json<{
        status: string;
        txId?: string;
        confirmations?: number;
        timestamp?: number;
      }>();
    const rpc = (method: string, params: unknown[]) => f.chain.call(method, params);
    const inMempool = (txid: string) => until(() => f.chain.isInMempool(txid), `${txid} in the mempool`);
    const createDataAnchor = async () =>
      (await inject('POST', '/v1/anchor', { name: 'data', hash: randomHash() })).json<{ id: string }>().id;

    before(async () => {
      f = await startAnchoring(kind);
      app = await testApp(f.s.store, {
        deps: { chain: f.chain, jobs: f.jobs },
        config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }),
      });
      const account = await createAccount(f.deps, { email: 'sealer@example.com', password: 'correct horse battery' });
      auth = { authorization: `Bearer ${(await createApiToken(f.deps, { accountId: account.id })).token}` };
    });
    after(async () => {
      await app?.close();
      await f?.close();
    });

    it('seals a file end to end: WAIT → SENT → CONFIRMED, receipt accepted by an independent verifier, .ots by python-opentimestamps', async (t) => {
      const file = Buffer.from(`contract signed on ${new Date().toISOString()}\n`);
      const signedHash = createHash('sha256').update(file).digest('hex');
      const created = await inject('POST', '/v1/anchor', {
        name: 'contract.txt',
        signedHash,
        signature: signer.sign(signedHash),
        pubKey: signer.address,
        callbackURL: 'https://hooks.example.com/seal',
      });
      assert.equal(created.statusCode, 200, created.body);
      const id = created.json<{ id: string }>().id;
      const dataId = await createDataAnchor();
      assert.equal((await anchorOf(id)).status, 'WAIT');
      assert.equal((await inject('GET', `/v1/receipt/${id}/ots`)).statusCode, 202);

      const closed = (await closeBatch(f.deps, { maxSize: 1000 }))!;
      assert.equal(closed.anchorCount, 2);
      assert.equal((await anchorOf(id)).status, 'WAIT', 'closed but not yet broadcast');
      const sent = await sendBatches(f.deps);
      assert.equal(sent.sent.length, 1);
      const txid = sent.sent[0]!;
      await inMempool(txid);
      const sentView = await anchorOf(id);
      assert.deepEqual([sentView.status, sentView.txId], ['SENT', txid]);
      assert.equal((await inject('GET', `/v1/receipt/${id}`)).statusCode, 200);
      const otsWhileSent = await inject('GET', `/v1/receipt/${id}/ots`);
      assert.equal(otsWhileSent.statusCode, 202);
      assert.equal(otsWhileSent.json<{ code: string }>().code, 'NOT_CONFIRMED');

      const [blockHash] = (await f.node.mine(1)) as [string];
      const first = await confirmBatches(f.deps);
      assert.deepEqual(first.firstConfirmations, [txid]);
      const once = await anchorOf(id);
      assert.deepEqual([once.status, once.confirmations], ['SENT', 1]);
      const header = (await f.chain.getBlockHeader(blockHash))!;
      assert.equal(once.timestamp, header.time * 1000);
      assert.equal(
        (await f.s.store.batches.confirmationProof(closed.batchId))?.blockHeader,
        await f.chain.getBlockHeaderHex(blockHash),
        'the 80-byte header is stored with the rest of the SPV data at the first confirmation',
      );

      await f.node.mine(5);
      assert.deepEqual((await confirmBatches(f.deps)).confirmed, [closed.batchId]);
      const done = await anchorOf(id);
      assert.deepEqual([done.status, done.confirmations, done.txId], ['CONFIRMED', 6, txid]);
      assert.equal((await anchorOf(dataId)).status, 'CONFIRMED');
      assert.deepEqual(
        await txidsCarrying(f.chain, closed.root, header.height),
        [txid],
        'exactly one transaction carries the root',
      );

      const receipt = (await inject('GET', `/v1/receipt/${id}`)).json<ReceiptLike>();
      const independent = await verifyReceiptIndependently(receipt, rpc);
      assert.deepEqual(independent, {
        proofValid: true,
        signature: 'VERIFIED',
        tx: 'FOUND',
        confirmations: 6,
        timestamp: header.time * 1000,
      });
      const verified = await app.inject({
        method: 'POST',
        url: '/v1/receipt/verify',
        payload: receipt as unknown as object,
      });
      assert.equal(verified.json<{ code: string }>().code, 'VERIFIED', verified.body);
      const dataReceipt = (await inject('GET', `/v1/receipt/${dataId}`)).json<ReceiptLike>();
      assert.equal((await verifyReceiptIndependently(dataReceipt, rpc)).proofValid, true);

      const callbacks = f.jobs.sent
        .filter((j) => j.name === DELIVER_CALLBACK)
        .map((j) => (j.data as { messageId: string }).messageId);
      assert.deepEqual(callbacks, [`msg_${id}_SENT`, `msg_${id}_CONFIRMED`], 'one callback per status change');

      const ots = await inject('GET', `/v1/receipt/${id}/ots`);
      assert.equal(ots.statusCode, 200);
      assert.equal(ots.headers['content-type'], 'application/octet-stream');
      if (!otsAvailable) return t.skip('python3-opentimestamps not installed (CI=true makes this a failure)');
      const check = await checkOts(ots.rawPayload, (await f.chain.getBlockHeaderHex(blockHash))!);
      assert.deepEqual(
        [check.error, check.ok, check.digest, check.height],
        [null, true, receipt.targetHash, header.height],
      );
    });

    it('reorg: the recorded block leaves the chain → SENT again without block data, the same tx is re-broadcast and confirms again', async () => {
      const id = await createDataAnchor();
      const closed = (await closeBatch(f.deps, { maxSize: 1000 }))!;
      const [txid] = (await sendBatches(f.deps)).sent as [string];
      await inMempool(txid);
      const [firstBlock] = (await f.node.mine(1)) as [string];
      await confirmBatches(f.deps);
      const height = (await f.s.store.batches.findById(closed.batchId))!.block!.blockHeight;

      await f.node.invalidateBlock(firstBlock);
      const after = await confirmBatches(f.deps);
      assert.deepEqual(after.reorgs, [closed.batchId]);
      assert.deepEqual(after.rebroadcast, [txid], 'bcoin dropped it with the block: the same bytes go again');
      const batch = (await f.s.store.batches.findById(closed.batchId))!;
      assert.deepEqual([batch.status, batch.block, batch.confirmations, batch.txId], ['SENT', null, 0, txid]);
      assert.equal(await f.s.store.batches.confirmationProof(closed.batchId), null, 'no stale proof data');
      assert.equal((await anchorOf(id)).status, 'SENT');

      await inMempool(txid);
      const [otherBlock] = (await f.node.mine(1)) as [string];
      assert.notEqual(otherBlock, firstBlock);
      assert.deepEqual((await confirmBatches(f.deps)).firstConfirmations, [txid]);
      assert.equal((await f.s.store.batches.findById(closed.batchId))!.block!.blockHash, otherBlock);
      await f.node.mine(5);
      await confirmBatches(f.deps);
      assert.equal((await anchorOf(id)).status, 'CONFIRMED');
      assert.equal((await f.s.store.btcTxs.ofBatch(closed.batchId)).length, 1, 'no second transaction was made');
      assert.deepEqual(await txidsCarrying(f.chain, closed.root, height - 1), [txid], 'anchored once');
    });

    it('deep reorg: a CONFIRMED batch whose block leaves the chain goes back to SENT and is anchored again, once', async () => {
      const id = await createDataAnchor();
      const closed = (await closeBatch(f.deps, { maxSize: 1000 }))!;
      const [txid] = (await sendBatches(f.deps)).sent as [string];
      await inMempool(txid);
      const [block] = (await f.node.mine(1)) as [string];
      await confirmBatches(f.deps);
      await f.node.mine(6);
      await confirmBatches(f.deps);
      assert.equal((await anchorOf(id)).status, 'CONFIRMED');
      const height = (await f.s.store.batches.findById(closed.batchId))!.block!.blockHeight;

      await f.node.invalidateBlock(block);
      const after = await confirmBatches(f.deps);
      assert.deepEqual(after.reorgs, [closed.batchId], 'watched though already CONFIRMED');
      assert.deepEqual(after.rebroadcast, [txid]);
      assert.equal((await anchorOf(id)).status, 'SENT');

      await inMempool(txid);
      await f.node.mine(6);
      await confirmBatches(f.deps);
      await confirmBatches(f.deps);
      assert.equal((await anchorOf(id)).status, 'CONFIRMED');
      assert.deepEqual(await txidsCarrying(f.chain, closed.root, height - 1), [txid], 'anchored once');
    });

    it('fee bump: a tx unconfirmed for BUMP_AFTER_BLOCKS blocks is replaced (same inputs, higher fee); the replacement confirms, the original is REPLACED', async () => {
      const id = await createDataAnchor();
      const closed = (await closeBatch(f.deps, { maxSize: 1000 }))!;
      const [original] = (await sendBatches(f.deps)).sent as [string];
      await inMempool(original);
      const sentReceipt = await inject('GET', `/v1/receipt/${id}`);
      assert.equal(sentReceipt.headers['cache-control'], 'no-cache', 'a SENT receipt is revalidated');
      const start = await f.chain.getBlockCount();
      await f.node.mineBlockWith([]);
      assert.deepEqual((await confirmBatches(f.deps)).bumped, [], 'one block is not stuck yet');
      await f.node.mineBlockWith([]);
      const bumped = await confirmBatches(f.deps);
      assert.equal(bumped.bumped.length, 1);
      const replacementTxid = bumped.bumped[0]!;
      const [replacement, old] = await f.s.store.btcTxs.ofBatch(closed.batchId);
      assert.deepEqual(
        [replacement!.txid, replacement!.replaces, replacement!.status, old!.txid],
        [replacementTxid, original, 'BROADCAST', original],
      );
      assert.deepEqual(replacement!.inputs, old!.inputs, 'spends the same coins, so only one can ever confirm');
      assert.ok(replacement!.feeSat > old!.feeSat && replacement!.feeRateSatVb > old!.feeRateSatVb);
      assert.equal((await anchorOf(id)).txId, replacementTxid);
      const revalidated = await app.inject({
        method: 'GET',
        url: `/v1/receipt/${id}`,
        headers: { 'if-none-match': String(sentReceipt.headers.etag) },
      });
      assert.equal(revalidated.statusCode, 200, 'the ETag of the receipt naming the original no longer matches');
      assert.equal(revalidated.json<ReceiptLike>().anchors[0]!.sourceId, replacementTxid);

      // bcoin 1.0.2 never replaces in its mempool; a miner confirms the replacement in a block.
      await f.node.mineBlockWith([replacement!.hex]);
      assert.deepEqual((await confirmBatches(f.deps)).firstConfirmations, [replacementTxid]);
      await f.node.mine(5);
      await confirmBatches(f.deps);
      const statuses = Object.fromEntries(
        (await f.s.store.btcTxs.ofBatch(closed.batchId)).map((t) => [t.txid, t.status]),
      );
      assert.deepEqual(statuses, { [replacementTxid]: 'CONFIRMED', [original]: 'REPLACED' });
      const view = await anchorOf(id);
      assert.deepEqual([view.status, view.txId, view.confirmations], ['CONFIRMED', replacementTxid, 6]);
      assert.equal(await f.chain.getRawTransaction(original), null, 'the original never confirmed');
      assert.deepEqual(await txidsCarrying(f.chain, closed.root, start), [replacementTxid]);
      const receipt = (await inject('GET', `/v1/receipt/${id}`)).json<ReceiptLike>();
      assert.equal((await verifyReceiptIndependently(receipt, rpc)).tx, 'FOUND');
      const change = replacement!.change!;
      assert.equal(
        (await f.s.store.utxos.list('available')).some((u) => u.txid === change.txid),
        true,
        'the replacement change is spendable',
      );
      assert.equal(
        (await f.s.store.utxos.list('available')).some((u) => u.txid === old!.change!.txid),
        false,
        'the original change never exists',
      );
    });

    it('once every batch is confirmed: nothing SENT or waiting, no coin reserved, no empty batch closed', async () => {
      await createDataAnchor();
      await closeBatch(f.deps, { maxSize: 1000 });
      const [txid] = (await sendBatches(f.deps)).sent as [string];
      await inMempool(txid);
      await f.node.mine(6);
      await confirmBatches(f.deps);
      assert.deepEqual(await f.s.store.batches.sent(), []);
      assert.deepEqual(await f.s.store.batches.waitingForTx(), []);
      assert.equal(await closeBatch(f.deps, { maxSize: 1000 }), null, 'no anchor waits: no empty batch');
      assert.deepEqual(await f.s.store.utxos.list('reserved'), [], 'no coin left reserved');
    });
  });
}
