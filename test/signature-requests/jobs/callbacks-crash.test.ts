// tier: slow (crash cycles)
/**
 * A batch's status change and its callbacks, across a SIGKILL right after the commit (PostgreSQL: the
 * child process and this one share the database). The former order (commit the change, then queue the
 * callbacks) loses them; the status change that queues them in its own transaction does not, and the
 * message is delivered once a worker runs again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createJobEngine, type JobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { DELIVER_CALLBACK } from '../../../src/app/anchoring/enqueue-anchor-callbacks.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { deliverCallbackJob } from '../../../src/jobs/callbacks/deliver-callback.job.js';
import { insertBatch } from '../../support/anchors.js';
import { silentLog, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const [, postgres] = await storeKinds();

/** Runs the child until it prints `committed`, then SIGKILLs it there. */
async function killRightAfterCommit(url: string, mode: 'old' | 'new', batchId: string): Promise<void> {
  const args = ['--import', 'tsx', 'test/support/change-status-then-hang.ts', url, mode, batchId];
  const child = spawn(process.execPath, [...args, randomBytes(32).toString('hex')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      if (b.toString().includes('committed')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code} before committing`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('callbacks of a status change across a crash after the commit (PostgreSQL)', { skip: postgres!.skip }, () => {
  let s: TestStore;
  let engine: JobEngine;
  let deps: AppDeps;
  let accountId: string;
  let hookUrl: string;
  let receiver: http.Server;
  const delivered: { id: string; body: string }[] = [];
  let onDelivery = () => undefined as void;

  before(async () => {
    s = await postgres!.open();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        delivered.push({ id: String(req.headers['webhook-id']), body });
        res.end();
        onDelivery();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
    deps = testDeps(s.withJobs(engine.sendOn), {
      jobs: engine,
      httpClient: createSafeFetch({ allowPrivateUrls: true }),
    });
    await engine.start();
    await engine.declare([deliverCallbackJob(deps)]);
    accountId = (await createAccount(deps, { email: 'crash-hooks@example.com', password: 'correct horse battery' })).id;
  });
  after(async () => {
    await engine?.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await s?.destroy();
  });

  /** A WAIT batch holding one anchor that has a callbackURL. */
  async function waitingBatch(): Promise<{ anchorId: string; batchId: string }> {
    const anchorId = randomUUID();
    const leaf = randomBytes(32);
    await s.db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, callback_url, created, last_modified)
       VALUES ($1, $2, 'crash', 'data', $3, $4, $5, 0, 0)`,
      [anchorId, accountId, leaf.toString('hex'), leaf, hookUrl],
    );
    return { anchorId, batchId: (await insertBatch(s.db, [anchorId], { status: 'WAIT' })).id };
  }

  async function state(batchId: string, anchorId: string): Promise<{ status: string; callbackJobs: number }> {
    const [batch] = await s.db.query<{ status: string }>('SELECT status FROM batch WHERE id = $1', [batchId]);
    const [jobs] = await s.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${s.db.schema}_pgboss.job WHERE name = $1 AND data->>'anchorId' = $2`,
      [DELIVER_CALLBACK, anchorId],
    );
    return { status: batch!.status, callbackJobs: jobs!.n };
  }

  it('the former order, commit then enqueue, loses the callback when killed between the two', async () => {
    const { anchorId, batchId } = await waitingBatch();
    await killRightAfterCommit(s.url!, 'old', batchId);
    assert.deepEqual(await state(batchId, anchorId), { status: 'SENT', callbackJobs: 0 }, 'SENT, and no callback');
  });

  it('now the callback is queued with the change: killed right after the commit, it is delivered after restart', async () => {
    const { anchorId, batchId } = await waitingBatch();
    await killRightAfterCommit(s.url!, 'new', batchId);
    assert.deepEqual(await state(batchId, anchorId), { status: 'SENT', callbackJobs: 1 });
    const arrived = new Promise<void>((resolve) => (onDelivery = resolve));
    await engine.work([deliverCallbackJob(deps)]);
    await Promise.race([
      arrived,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('no delivery within 20 s of the restart')), 20_000).unref(),
      ),
    ]);
    assert.deepEqual(
      delivered.map((d) => [d.id, JSON.parse(d.body).status]),
      [[`msg_${anchorId}_SENT`, 'SENT']],
    );
  });
});
