// tier: slow (crash cycles)
/**
 * A worker killed while sending (test hook: it stops inside the send run, before signing) leaves the send
 * job `active`; the next worker must send the waiting batch within two minutes of the kill, not after the
 * job's old 5-minute expiry. And since that expiry is short, two send runs may meet: one sends, the other
 * finds the send lock taken and does nothing, so no batch ever gets two transactions.
 * PostgreSQL only: the workers are other processes sharing the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BitcoinRpcClient } from '../../../src/adapters/chain/bitcoin-rpc.js';
import type { OpenedStore } from '../../../src/adapters/store/create-store.js';
import { keyVaultRepository } from '../../../src/adapters/store/key-vault.repository.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { SEND_BATCHES } from '../../../src/app/anchoring/anchoring-deps.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import { startAnchoring, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { testDeps } from '../../support/fixtures.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { startProofseal, type Proc } from '../../support/processes.js';
import { openFundedWallet, startRegtestOnSchema, type RegtestOnSchema } from '../../support/regtest-fixture.js';
import { dropSchema, newSchemaName, storeKinds } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';
import { jobStates, killWorkerPausedIn } from '../../support/worker-crash.js';

const [, postgres] = await storeKinds();
/** Issue 12: the batching resumes "within a minute or two" of a crash. */
const BOUND_MS = 120_000;
const SECRET_KEY = 'e'.repeat(40);

const insertAnchors = (db: OpenedStore['db'], accountId: string, n: number) =>
  insertDataAnchors(db, accountId, randomLeaves(n), 'send');

describe('a worker killed mid-send (worker processes, PostgreSQL)', { skip: postgres!.skip }, () => {
  const schema = newSchemaName();
  let rig: RegtestOnSchema | undefined;
  let opened: OpenedStore;
  const workers: Proc[] = [];
  let env: Record<string, string>;
  let accountId = '';

  before(async () => {
    rig = await startRegtestOnSchema(schema, {
      name: 'send-crash',
      secretKey: SECRET_KEY,
      env: { CONFIRM_POLL_SECONDS: '1' },
    });
    ({ opened, env } = rig);
    const chain = new BitcoinRpcClient({ url: rig.node.rpcUrl });
    const vault = keyVaultRepository(opened.db, Date.now);
    await openFundedWallet(rig.node, { chain, vault, utxos: opened.store.utxos, secretKey: SECRET_KEY }, 1);
    const account = await createAccount(testDeps(opened.store), { email: 'send@example.com', password: 'pw pw pw pw' });
    accountId = account.id;
    await insertAnchors(opened.db, account.id, 20);
  });
  after(async () => {
    for (const w of workers) await w.stop();
    await rig?.close();
    await dropSchema(schema);
  });

  /**
   * The batches holding this test's anchors (with the transparency log on, as shipped, its checkpoints are
   * anchors of the log's own, sealed in batches of their own).
   */
  const batches = () =>
    opened.db.query<{ status: string; txs: number }>(
      `SELECT b.status, (SELECT count(*)::int FROM btc_tx t WHERE t.batch_id = b.id) AS txs FROM batch b
       WHERE b.id IN (SELECT ab.batch_id FROM anchor_batch ab JOIN anchor a ON a.id = ab.anchor_id WHERE a.account_id = $1)`,
      [accountId],
    );

  it('the next worker sends the waiting batch within two minutes of the kill, with one transaction', async (t) => {
    const killedAt = await killWorkerPausedIn('send', env);
    const jobs = await jobStates(opened.db, schema, SEND_BATCHES);
    assert.ok(jobs.includes('active'), `the dead worker's send job is left active: ${JSON.stringify(jobs)}`);
    assert.deepEqual(await batches(), [{ status: 'WAIT', txs: 0 }], 'the killed send signed nothing');

    workers.push(await startProofseal(['start', '--role', 'worker'], env, /proofseal started/));
    await waitUntil(
      async () => (await batches())[0]?.status === 'SENT',
      'the batch SENT by the next worker',
      BOUND_MS,
      500,
    );
    t.diagnostic(`batch sent ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    assert.deepEqual(await batches(), [{ status: 'SENT', txs: 1 }]);
  });
});

describe('two send runs at once (PostgreSQL)', { skip: postgres!.skip }, () => {
  let f: AnchoringFixture;
  before(async () => {
    f = await startAnchoring(postgres!, 3);
    const account = await createAccount(f.deps, { email: 'twice@example.com', password: 'pw pw pw pw' });
    for (let i = 0; i < 3; i++) {
      await insertAnchors(f.s.db, account.id, 5);
      assert.ok(await closeBatch(f.deps, { maxSize: 5 }));
    }
  });
  after(async () => f?.close());

  it('one sends every batch, the other finds the lock taken; each batch has one transaction', async () => {
    const runs = await Promise.all([sendBatches(f.deps), sendBatches(f.deps)]);
    const perBatch = await f.s.db.query<{ txs: number }>(
      `SELECT (SELECT count(*)::int FROM btc_tx t WHERE t.batch_id = b.id) AS txs FROM batch b WHERE b.leaf_count > 0`,
    );
    assert.deepEqual(
      perBatch.map((r) => r.txs),
      [1, 1, 1],
      'one transaction per batch',
    );
    assert.deepEqual(runs.map((r) => r.busy === true).sort(), [false, true], JSON.stringify(runs));
    assert.equal(runs.find((r) => !r.busy)!.sent.length, 3);
    const again = await sendBatches(f.deps);
    assert.deepEqual([again.busy, again.sent], [undefined, []], 'the lock is free again once a run ends');
  });
});
