// tier: slow (spawned processes)
/** The job engine (pg-boss) on both stores: restart survival, retries with backoff, scheduled singletons. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createJobEngine, type JobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { openStore } from '../../../src/adapters/store/create-store.js';
import type { JobDefinition } from '../../../src/app/shared/job-definition.port.js';
import pino from 'pino';
import { silentLog } from '../../support/fixtures.js';
import { capturedLog, waitUntil } from '../../support/wait.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

function def(name: string, handle: (d: object) => Promise<void>, extra: Partial<JobDefinition> = {}): JobDefinition {
  return {
    name,
    schema: Type.Object({}),
    policy: 'any-number',
    retryLimit: 3,
    retryDelaySeconds: 1,
    retryBackoff: true,
    expireInSeconds: 60,
    handle,
    ...extra,
  };
}

/** Runs the child, waits for "sent", then kills it with SIGKILL (no graceful stop). */
async function sendFromKilledProcess(url: string, dir: string, queue: string, payload: object): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/send-job-then-hang.ts', url, dir, queue, JSON.stringify(payload)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      if (b.toString().includes('sent ')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code} before sending`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

for (const kind of kinds) {
  describe(`jobs on ${kind.name}`, { skip: kind.skip }, () => {
    it('a job sent by a process that is then killed runs after a restart', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'proofseal-jobs-'));
      const schema = newSchemaName();
      const url = kind.name === 'postgres' ? schemaUrl(schema) : undefined;
      try {
        await sendFromKilledProcess(url ?? '-', url ? '-' : path.join(dir, 'pglite'), 'restart.test', { n: 42 });
        const opened = await openStore({
          databaseUrl: url,
          embeddedDir: url ? undefined : path.join(dir, 'pglite'),
          now: Date.now,
        });
        const engine = createJobEngine(opened.db, silentLog, { pollingIntervalSeconds: 0.5 });
        const seen: object[] = [];
        await engine.start();
        await engine.work([
          def('restart.test', async (d) => {
            seen.push(d);
          }),
        ]);
        await waitUntil(() => seen.length > 0, 'the job to run after restart');
        assert.deepEqual(seen, [{ n: 42 }]);
        await engine.stop();
        await opened.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
        if (url) await dropSchema(schema);
      }
    });

    it('a failing job is retried with backoff until it succeeds', async () => {
      const s = await kind.open();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      const attempts: number[] = [];
      try {
        await engine.start();
        const d = def(
          'retry.test',
          async () => {
            attempts.push(Date.now());
            if (attempts.length < 3) throw new Error('transient');
          },
          { retryLimit: 4, retryDelaySeconds: 1, retryBackoff: true },
        );
        await engine.declare([d]);
        await engine.work([d]);
        await engine.send('retry.test', {});
        await waitUntil(() => attempts.length >= 3, 'three attempts', 30_000);
        const gaps = [attempts[1]! - attempts[0]!, attempts[2]! - attempts[1]!];
        assert.ok(gaps[0]! >= 900, `first retry after ${gaps[0]} ms`);
        assert.ok(gaps[1]! >= gaps[0]!, `backoff grows: ${gaps.join(', ')} ms`);
        const [row] = await s.db.query<{ state: string; retry_count: number }>(
          `SELECT state, retry_count FROM ${s.db.schema ? `${s.db.schema}_pgboss` : 'pgboss'}.job WHERE name = 'retry.test'`,
        );
        assert.equal(row!.retry_count, 2);
      } finally {
        await engine.stop();
        await s.destroy();
      }
    });

    it('a job whose data does not match its schema fails at once, without retries, logged by queue, not payload', async () => {
      const s = await kind.open();
      const log = capturedLog();
      const engine = createJobEngine(s.db, pino({ level: 'info' }, log.stream), { pollingIntervalSeconds: 0.5 });
      const table = `${s.db.schema ? `${s.db.schema}_pgboss` : 'pgboss'}.job`;
      const handled: unknown[] = [];
      try {
        await engine.start();
        const schema = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
        const d = def(
          'payload.test',
          async (data) => {
            handled.push(data);
          },
          { schema, retryLimit: 5, retryDelaySeconds: 1 },
        );
        await engine.declare([d]);
        await engine.work([d]);
        const bad = await engine.send('payload.test', { n: 'secret-value-123' });
        const good = await engine.send('payload.test', { n: 7 });
        const ended = async () =>
          s.db.query<{ id: string; state: string; retry_count: number }>(
            `SELECT id, state, retry_count FROM ${table} WHERE name = 'payload.test' AND state IN ('completed', 'failed')`,
          );
        await waitUntil(async () => (await ended()).length === 2, 'both jobs to end');
        const byId = new Map((await ended()).map((r) => [r.id, [r.state, r.retry_count]]));
        assert.deepEqual(byId.get(bad!), ['failed', 0], 'failed on its first attempt, never retried');
        assert.deepEqual(byId.get(good!), ['completed', 0]);
        assert.deepEqual(handled, [{ n: 7 }], 'the handler never saw the invalid payload');
        const line = log.lines.find((l) => String(l.msg).includes('invalid job payload'));
        assert.equal(line?.queue, 'payload.test');
        assert.equal(line?.jobId, bad);
        assert.match(String(line?.problem), /\/n must be integer/);
        assert.ok(!JSON.stringify(log.lines).includes('secret-value-123'), 'the payload is not logged');
      } finally {
        await engine.stop();
        await s.destroy();
      }
    });

    it('a job sent through a store transaction exists only if the transaction commits', async () => {
      const s = await kind.open();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      const table = `${s.db.schema ? `${s.db.schema}_pgboss` : 'pgboss'}.job`;
      try {
        await engine.start();
        await engine.declare([def('tx.test', async () => undefined)]);
        const store = s.withJobs(engine.sendOn);
        await store.transaction(async (tx) => {
          await tx.jobs.send('tx.test', { kept: true });
        });
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.jobs.send('tx.test', { kept: false });
            throw new Error('rolled back');
          }),
          /rolled back/,
        );
        const rows = await s.db.query<{ data: { kept: boolean } }>(`SELECT data FROM ${table} WHERE name = 'tx.test'`);
        assert.deepEqual(
          rows.map((r) => r.data),
          [{ kept: true }],
        );
      } finally {
        await engine.stop();
        await s.destroy();
      }
    });

    it('two workers scheduling the same periodic job create one job per slot', async () => {
      const s = await kind.open();
      const logs = [capturedLog(), capturedLog()];
      const engines: JobEngine[] = logs.map((l) => createJobEngine(s.db, pino({ level: 'debug' }, l.stream)));
      const table = `${s.db.schema ? `${s.db.schema}_pgboss` : 'pgboss'}.job`;
      let runs = 0;
      try {
        const d = def(
          'tick.test',
          async () => {
            runs += 1;
          },
          { policy: 'one-queued-one-running', everySeconds: 3600 },
        );
        for (const e of engines) {
          await e.start();
          await e.declare([d]);
        }
        for (const e of engines) await e.work([d]);
        // Each worker logs its first tick once the engine answered it: both asked, for the same slot.
        const ticks = () => logs.flatMap((l) => l.lines.filter((line) => line.job === 'tick.test'));
        await waitUntil(() => ticks().length === 2, 'both workers to send their first tick');
        await waitUntil(
          async () =>
            (await s.db.query(`SELECT 1 FROM ${table} WHERE name = 'tick.test' AND state = 'completed'`)).length > 0,
          'the tick to complete',
        );
        assert.deepEqual(
          ticks()
            .map((line) => line.queued)
            .sort(),
          [false, true],
          'one worker queued the slot, the other found it queued',
        );
        const jobs = await s.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE name = 'tick.test'`,
        );
        assert.equal(jobs[0]!.n, 1, 'one job for the slot, though two workers asked');
        assert.equal(runs, 1);
      } finally {
        for (const e of engines) await e.stop();
        await s.destroy();
      }
    });
  });
}
