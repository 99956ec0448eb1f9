// tier: slow (crash cycles)
/**
 * Crash between broadcast and bookkeeping: a real worker process (`proofseal start --role worker`)
 * exits right after handing the anchoring transaction to the node (test hook), before recording it.
 * A new worker process reconciles the SIGNED record with the same bytes: exactly one transaction
 * carries the root on chain and every anchor ends CONFIRMED.
 * PostgreSQL only: the embedded store is one process's database (the worker is another process).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { BitcoinRpcClient } from '../../../src/adapters/chain/bitcoin-rpc.js';
import type { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import type { OpenedStore } from '../../../src/adapters/store/create-store.js';
import { keyVaultRepository } from '../../../src/adapters/store/key-vault.repository.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { txidsCarrying, until } from '../../support/anchoring-fixture.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { testDeps } from '../../support/fixtures.js';
import { proofsealArgs, startProofseal, type Proc } from '../../support/processes.js';
import { openFundedWallet, startRegtestOnSchema, type RegtestOnSchema } from '../../support/regtest-fixture.js';
import { dropSchema, newSchemaName, storeKinds } from '../../support/stores.js';

const [, postgres] = await storeKinds();
const SECRET_KEY = 'c'.repeat(40);

/** Runs a worker until it exits by itself; resolves with its exit code and output. */
function runWorkerUntilExit(
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, proofsealArgs(['start', '--role', 'worker']), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not exit in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('crash between broadcast and recording (worker processes, PostgreSQL)', { skip: postgres!.skip }, () => {
  const schema = newSchemaName();
  let rig: RegtestOnSchema | undefined;
  let node: EmbeddedRegtest;
  let chain: BitcoinRpcClient;
  let opened: OpenedStore;
  let worker: Proc | null = null;
  let env: Record<string, string>;
  let startHeight = 0;
  let accountId = '';
  /**
   * This test's batches (those holding its anchors) and their transactions: with the transparency log on, as
   * shipped, the log's checkpoints are anchors too, sealed in batches and transactions of their own.
   */
  const OURS = `SELECT DISTINCT ab.batch_id FROM anchor_batch ab JOIN anchor a ON a.id = ab.anchor_id WHERE a.account_id = $1`;
  const ourTxs = () =>
    opened.db.query<{ txid: string; status: string }>(
      `SELECT txid, status FROM btc_tx WHERE batch_id IN (${OURS}) ORDER BY txid`,
      [accountId],
    );
  const ourBatches = () =>
    opened.db.query<{ status: string; root: Uint8Array; tx_id: string | null }>(
      `SELECT status, root, tx_id FROM batch WHERE id IN (${OURS})`,
      [accountId],
    );

  before(async () => {
    rig = await startRegtestOnSchema(schema, {
      name: 'crash',
      secretKey: SECRET_KEY,
      env: { CONFIRM_POLL_SECONDS: '1', LOG_LEVEL: 'info' },
    });
    ({ node, opened, env } = rig);
    chain = new BitcoinRpcClient({ url: node.rpcUrl });
    const vault = keyVaultRepository(opened.db, Date.now);
    await openFundedWallet(node, { chain, vault, utxos: opened.store.utxos, secretKey: SECRET_KEY }, 1);
    const account = await createAccount(testDeps(opened.store), {
      email: 'crash@example.com',
      password: 'correct horse battery',
    });
    const leaves = randomLeaves(25);
    accountId = account.id;
    await insertDataAnchors(opened.db, account.id, leaves, 'crash');
    startHeight = await chain.getBlockCount();
  });
  after(async () => {
    await worker?.stop();
    await rig?.close();
    await dropSchema(schema);
  });

  it('the worker dies right after sendrawtransaction: the tx is on the node, recorded only as SIGNED', async () => {
    const { code, out } = await runWorkerUntilExit({ ...env, PROOFSEAL_TEST_CRASH_AFTER_BROADCAST: 'true' }, 60_000);
    assert.equal(code, 86, out);
    const txs = await ourTxs();
    assert.deepEqual(
      txs.map((t) => t.status),
      ['SIGNED'],
    );
    await until(() => chain.isInMempool(txs[0]!.txid), 'the broadcast tx in the mempool');
    const [batch, ...others] = await ourBatches();
    assert.equal(others.length, 0);
    assert.equal(batch!.status, 'WAIT', 'the crash came before the batch was marked SENT');
  });

  it('a restarted worker reconciles with the same bytes: one OP_RETURN with the root on chain, every anchor CONFIRMED', async () => {
    worker = await startProofseal(['start', '--role', 'worker'], env, /proofseal started/);
    const { txid } = (await ourTxs())[0]!;
    await until(
      async () =>
        (await opened.db.query(`SELECT 1 FROM batch WHERE status = 'SENT' AND tx_id = $1`, [txid])).length === 1,
      'the batch SENT',
      20_000,
    );
    await node.mine(6);
    // When the killed worker was also running a confirmation (its queue is stately: one active job at a
    // time), that job stays active until it expires (60 s) and pg-boss's maintenance (every 30 s) retries
    // it: the restarted worker confirms only then, which is what docs/architecture.md promises.
    await until(
      async () => (await ourBatches()).filter((b) => b.status === 'CONFIRMED').length === 1,
      'the batch CONFIRMED',
      120_000,
    );
    assert.deepEqual(await ourTxs(), [{ txid, status: 'CONFIRMED' }], 'no second transaction was ever signed');
    const batches = await ourBatches();
    assert.equal(batches.length, 1, 'the anchors were never batched again');
    const [batch] = batches;
    assert.equal(batch!.tx_id, txid);
    assert.deepEqual(await txidsCarrying(chain, Buffer.from(batch!.root).toString('hex'), startHeight), [txid]);
    const counts = await opened.db.query<{ status: string; n: number }>(
      `SELECT COALESCE(b.status, 'WAIT') AS status, count(*)::int AS n FROM anchor a LEFT JOIN anchor_batch ab ON ab.anchor_id = a.id LEFT JOIN batch b ON b.id = ab.batch_id WHERE a.account_id = $1 GROUP BY 1`,
      [accountId],
    );
    assert.deepEqual(counts, [{ status: 'CONFIRMED', n: 25 }]);
    assert.match(worker.output(), /reconciled/);
  });
});
