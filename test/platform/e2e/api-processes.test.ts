// tier: slow (spawned processes)
/**
 * `start --role api --processes N`: N API processes share one port on one PostgreSQL; a process that dies
 * while serving is replaced; SIGTERM stops them all; the count is refused where it cannot work.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { freePort, runProofseal, startProofseal, waitForOutput, type Proc } from '../../support/processes.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';

const [, postgres] = await storeKinds();

/** The pids of the processes that logged "proofseal started" (pino's JSON or pretty lines carry the pid). */
function startedPids(output: string): number[] {
  const lines = output.split('\n').filter((l) => l.includes('proofseal started'));
  return lines.map((l) => Number(/"pid":(\d+)|\((\d+)\)/.exec(l)!.slice(1).find(Boolean)));
}

describe('several API processes on one port', { skip: postgres!.skip }, () => {
  const schema = newSchemaName();
  const env = {
    DATABASE_URL: schemaUrl(schema),
    DATA_DIR: `/tmp/proofseal-procs-${schema}`,
    SECRET_KEY: 'k'.repeat(40),
  };
  let api: Proc;
  let port = 0;
  after(async () => {
    await api?.stop();
    await dropSchema(schema);
  });

  it('two processes answer on one port; one killed is replaced; SIGTERM stops them all with 0', async () => {
    port = await freePort();
    api = await startProofseal(
      ['start', '--role', 'api', '--processes', '2'],
      { ...env, PORT: String(port) },
      /API processes started/,
      180_000,
    );
    await waitUntil(async () => startedPids(api.output()).length === 2, 'two API processes to start', 180_000, 200);
    const pids = startedPids(api.output());
    assert.equal(new Set(pids).size, 2, 'two distinct processes');
    assert.ok(!pids.includes(api.child.pid!), 'the primary serves nothing itself');
    const health = await Promise.all(Array.from({ length: 8 }, () => fetch(`http://127.0.0.1:${port}/health`)));
    assert.deepEqual(
      health.map((r) => r.status),
      Array(8).fill(200),
    );
    process.kill(pids[0]!, 'SIGKILL');
    await waitForOutput(api, /an API process died: starting another/, 'the replacement notice');
    await waitUntil(async () => startedPids(api.output()).length === 3, 'a third process to start', 180_000, 200);
    assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200);
    assert.equal(await api.stop(), 0, api.output().slice(-2000));
    const alive = startedPids(api.output()).filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    assert.deepEqual(alive, [], 'no API process outlives the primary');
  });

  it('a process that cannot start stops the others and the exit code says why', async () => {
    const bad = await runProofseal(['start', '--role', 'api', '--processes', '2'], {
      ...env,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      DATABASE_WAIT_SECONDS: '0',
      PORT: String(await freePort()),
    });
    assert.equal(bad.code, 1, bad.stderr);
    assert.match(bad.stderr + bad.stdout, /database/i);
  });
});

describe('--processes is refused where it cannot work', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['the embedded store', ['--role', 'api', '--processes', '2'], {}],
    ['another role', ['--role', 'worker', '--processes', '2'], {}],
    ['not a number', ['--role', 'api', '--processes', 'many'], {}],
  ];
  for (const [what, args, extra] of cases) {
    it(`usage error (exit 2): ${what}`, async () => {
      const r = await runProofseal(['start', ...args], { DATA_DIR: '/tmp/proofseal-procs-refused', ...extra });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /processes/);
    });
  }
});
