// tier: slow (a bcoin regtest node)
/**
 * A broadcast the node did not keep is seen, on bcoin regtest: bcoin's `sendrawtransaction` answers the
 * txid even when its mempool refuses the transaction — here a P2WPKH spend before segwit is active
 * ('no-witness-yet'). The send job says so in an error line (txid, batch, reason), `/ready` turns 503
 * with `details.chain.unkeptTransactions`, and the confirm poll sends it again each time until the node
 * keeps it. Later the node drops it (bcoin empties its mempool when a block is invalidated, as an
 * eviction would): `/ready` sees it and the confirm poll sends it again, with a warning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { createAnchor } from '../../../src/app/anchoring/create-anchor.js';
import { buildApp } from '../../../src/http/app.js';
import { chainReadiness } from '../../../src/http/routes/health.route.js';
import { confirmBatchesJob, sendBatchesJob, type JobLog } from '../../../src/jobs/anchoring/bitcoin.jobs.js';
import { BCOIN_SEGWIT_HEIGHT } from '../../../src/adapters/chain/embedded-regtest.js';
import { randomHash } from '../../support/anchors.js';
import { startAnchoring, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const embedded = (await storeKinds()).find((k) => k.name === 'embedded')!;

interface Line {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

describe('a broadcast the node did not keep, on bcoin regtest', () => {
  let f: AnchoringFixture;
  let app: FastifyInstance;
  let lines: Line[] = [];
  let txid = '';
  let batchId = '';
  const log: JobLog = {
    info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  const jobOptions = () => ({ deps: f.deps, log, batchIntervalSeconds: 1, pollSeconds: 1 });
  const ready = async () => {
    const res = await app.inject('/ready');
    return {
      code: res.statusCode,
      body: res.json<{
        checks: Record<string, string>;
        details: { chain: { height: number; unkeptTransactions: string[] } };
      }>(),
    };
  };

  before(async () => {
    f = await startAnchoring(embedded, 1, {}, { activateSegwit: false });
    app = await buildApp(
      {
        ...testDeps(f.s.store, { chain: f.chain, jobs: f.jobs }),
        readiness: { store: () => f.s.store.ping(), chain: chainReadiness(f.deps) },
      },
      testConfig(),
    );
    const account = await createAccount(f.deps, { email: 'unkept@example.com', password: 'correct horse battery' });
    await createAnchor(f.deps, { accountId: account.id, name: 'data', hash: randomHash() });
    batchId = (await closeBatch(f.deps, { maxSize: 1000 }))!.batchId;
  });
  after(async () => {
    await app?.close();
    await f?.close();
  });

  it("is ready with no unkept transaction before anything is sent, and gives the node's tip", async () => {
    const r = await ready();
    assert.equal(r.code, 200);
    assert.deepEqual(r.body.details.chain.unkeptTransactions, []);
    assert.equal(r.body.details.chain.height, await f.chain.getBlockCount());
  });

  it('the send job logs an error with the txid, batch and reason when the mempool refused the transaction', async () => {
    assert.ok((await f.chain.getBlockCount()) < BCOIN_SEGWIT_HEIGHT, 'segwit not active yet');
    lines = [];
    await sendBatchesJob(jobOptions()).handle({});
    const errors = lines.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(lines));
    txid = errors[0]!.obj.txid as string;
    assert.match(txid, /^[0-9a-f]{64}$/);
    assert.equal(errors[0]!.obj.batchId, batchId);
    assert.match(errors[0]!.obj.reason as string, /held it in neither its mempool nor its chain/);
    assert.match(errors[0]!.msg, /did not keep/);
    assert.match(f.node.nodeErrors.join('\n'), /no-witness-yet/, "bcoin's own reason, which its RPC does not return");
    assert.equal((await f.s.store.batches.findById(batchId))!.status, 'SENT', 'the batch names the transaction');
  });

  it('/ready answers 503 and names the transaction', async () => {
    const r = await ready();
    assert.equal(r.code, 503);
    assert.deepEqual(r.body.checks, { store: 'ok', chain: 'not ready' });
    assert.deepEqual(r.body.details.chain.unkeptTransactions, [txid]);
  });

  it('the confirm poll sends it again at each poll and says each time that it was not kept', async () => {
    lines = [];
    await confirmBatchesJob(jobOptions()).handle({});
    assert.deepEqual(
      lines.filter((l) => l.level !== 'info').map((l) => [l.level, l.obj.txid ?? l.obj.txids]),
      [
        ['warn', [txid]],
        ['error', txid],
      ],
    );
  });

  it('once segwit is active the poll sends it again, the node keeps it, and /ready is 200', async () => {
    await f.node.mineTo(BCOIN_SEGWIT_HEIGHT + 2);
    lines = [];
    await confirmBatchesJob(jobOptions()).handle({});
    assert.deepEqual(
      lines.filter((l) => l.level !== 'info').map((l) => [l.level, l.obj.txids]),
      [['warn', [txid]]],
    );
    assert.equal(await f.chain.locateTransaction(txid), 'mempool');
    const r = await ready();
    assert.equal(r.code, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.details.chain.unkeptTransactions, []);
  });

  it('a transaction the node drops later is seen by /ready and sent again by the confirm poll', async () => {
    await f.node.invalidateBlock((await f.chain.getBlockHash(await f.chain.getBlockCount()))!);
    assert.equal(await f.chain.locateTransaction(txid), null, 'bcoin emptied its mempool');
    assert.deepEqual((await ready()).body.details.chain.unkeptTransactions, [txid]);
    lines = [];
    await confirmBatchesJob(jobOptions()).handle({});
    assert.deepEqual(
      lines.filter((l) => l.level !== 'info').map((l) => [l.level, l.msg]),
      [['warn', 'the node no longer held these transactions (evicted or dropped): sent again']],
    );
    assert.equal((await ready()).code, 200);
    await f.node.mine(1);
    lines = [];
    await confirmBatchesJob(jobOptions()).handle({});
    assert.equal(await f.chain.locateTransaction(txid), 'chain');
    assert.deepEqual(
      lines.filter((l) => l.level !== 'info'),
      [],
    );
    assert.equal((await ready()).code, 200);
  });
});
