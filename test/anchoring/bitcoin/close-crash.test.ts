// tier: slow (crash cycles)
/**
 * A worker killed in the middle of closing a batch (test hook: it stops inside the closing transaction,
 * anchors assigned, nothing committed) leaves the close job `active`. The next worker must close the
 * batch within two minutes of the kill, not after the old 30-minute expiry.
 * PostgreSQL only: the workers are other processes sharing the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenedStore } from '../../../src/adapters/store/create-store.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { CLOSE_BATCH } from '../../../src/app/anchoring/anchoring-deps.js';
import { testDeps } from '../../support/fixtures.js';
import { insertDataAnchors, randomLeaves } from '../../support/anchors.js';
import { startProofseal, type Proc } from '../../support/processes.js';
import { startRegtestOnSchema, type RegtestOnSchema } from '../../support/regtest-fixture.js';
import { dropSchema, newSchemaName, storeKinds } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';
import { jobStates, killWorkerPausedIn } from '../../support/worker-crash.js';

const [, postgres] = await storeKinds();
/** Issue 12: closing resumes "within a minute or two" of a crash. */
const BOUND_MS = 120_000;
const ANCHORS = 40;

describe('a worker killed mid-close (worker processes, PostgreSQL)', { skip: postgres!.skip }, () => {
  const schema = newSchemaName();
  let rig: RegtestOnSchema | undefined;
  let opened: OpenedStore;
  const workers: Proc[] = [];
  let env: Record<string, string>;

  before(async () => {
    rig = await startRegtestOnSchema(schema, { name: 'close-crash', secretKey: 'd'.repeat(40) });
    ({ opened, env } = rig);
    const account = await createAccount(testDeps(opened.store), {
      email: 'close@example.com',
      password: 'pw pw pw pw',
    });
    await insertDataAnchors(opened.db, account.id, randomLeaves(ANCHORS), 'close');
  });
  after(async () => {
    for (const w of workers) await w.stop();
    await rig?.close();
    await dropSchema(schema);
  });

  const closedAnchors = async () =>
    (
      await opened.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM anchor_batch ab JOIN batch b ON b.id = ab.batch_id WHERE b.leaf_count > 0`,
      )
    )[0]!.n;

  it('the next worker closes the batch within two minutes of the kill', async (t) => {
    const killedAt = await killWorkerPausedIn('close', env);
    const jobs = await jobStates(opened.db, schema, CLOSE_BATCH);
    assert.ok(jobs.includes('active'), `the dead worker's close job is left active: ${JSON.stringify(jobs)}`);
    assert.equal(await closedAnchors(), 0, 'the killed close committed nothing');

    workers.push(await startProofseal(['start', '--role', 'worker'], env, /proofseal started/));
    await waitUntil(async () => (await closedAnchors()) === ANCHORS, 'every anchor in a closed batch', BOUND_MS, 500);
    const seconds = (Date.now() - killedAt) / 1000;
    t.diagnostic(`first batch closed ${seconds.toFixed(1)} s after the kill`);
    const batches = await opened.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM anchor a LEFT JOIN anchor_batch ab ON ab.anchor_id = a.id GROUP BY ab.batch_id',
    );
    assert.deepEqual(
      batches.map((b) => b.n),
      [ANCHORS],
      'one batch with every anchor',
    );
    const empty = await opened.db.query('SELECT 1 FROM batch WHERE leaf_count = 0');
    assert.equal(empty.length, 0, 'no leftover empty batch');
  });
});
