// tier: slow (spawned processes, a Bitcoin node)
/**
 * bcoin is an optional dependency, for the embedded regtest node only: a production install (`npm ci
 * --omit=optional`) on PostgreSQL and a Bitcoin Core node has no bcoin. The processes here run with bcoin's
 * resolution blocked (./support/without-bcoin.mjs), as if it were not installed: every module of the
 * service loads, a service on PostgreSQL with an RPC node starts and serves, and only starting the embedded
 * node needs bcoin, which it then says.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EmbeddedRegtest } from '../../../src/adapters/chain/embedded-regtest.js';
import { freePort, startProofseal, type Proc } from '../../support/processes.js';
import { regtestEnv } from '../../support/regtest-fixture.js';
import { dropSchema, newSchemaName, schemaUrl } from '../../support/stores.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const WITHOUT_BCOIN = `--import=${path.join(ROOT, 'test/support/without-bcoin.mjs')}`;
const BLOCKED = /bcoin blocked: (.*)/g;

/** The composition root's modules (they import every other module of the service but the browser's). */
const ENTRY_MODULES = ['main', 'runtime', 'bitcoin-runtime', 'operator-runtime', 'client-runtime'].map((m) =>
  path.join(ROOT, 'src', `${m}.ts`),
);

describe('without bcoin (a production install)', () => {
  it('the service loads every module; starting the embedded node says bcoin is missing', () => {
    const script = `
      for (const m of ${JSON.stringify(ENTRY_MODULES)}) await import(m);
      process.stderr.write('all modules loaded\\n');
      const { EmbeddedRegtest } = await import(${JSON.stringify(path.join(ROOT, 'src/adapters/chain/embedded-regtest.ts'))});
      try {
        await EmbeddedRegtest.start();
        console.log('started');
      } catch (err) {
        console.log(JSON.stringify({ code: err.code, message: err.message }));
      }`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: WITHOUT_BCOIN },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const [loading, starting = ''] = run.stderr.split('all modules loaded\n');
    assert.ok(run.stderr.includes('all modules loaded'), run.stderr);
    assert.deepEqual([...loading!.matchAll(BLOCKED)], [], 'a module loads bcoin at import');
    assert.deepEqual(
      [...new Set([...starting.matchAll(BLOCKED)].map((m) => path.relative(ROOT, m[1]!)))],
      ['src/adapters/chain/embedded-regtest.ts'],
    );
    const answer = JSON.parse(run.stdout.trim()) as { code: string; message: string };
    assert.equal(answer.code, 'CHAIN_UNAVAILABLE');
    assert.match(answer.message, /optional dependency bcoin.*--omit=optional.*BITCOIN_RPC_URL/);
  });

  describe('a service on PostgreSQL with an RPC node', () => {
    const schema = newSchemaName();
    let node: EmbeddedRegtest;
    let service: Proc | undefined;
    let api = '';

    before(async () => {
      node = await EmbeddedRegtest.start();
      const port = await freePort();
      api = `http://127.0.0.1:${port}`;
      service = await startProofseal(
        ['start', '--role', 'all'],
        {
          NODE_OPTIONS: WITHOUT_BCOIN,
          DATABASE_URL: schemaUrl(schema),
          DATA_DIR: `/tmp/proofseal-without-bcoin-${schema}`,
          ...regtestEnv(node),
          PORT: String(port),
          IDENTITY_PORT: String(await freePort()),
        },
        /proofseal started/,
        120_000,
      );
    });
    after(async () => {
      await service?.stop();
      await node?.stop();
      await dropSchema(schema);
    });

    it('starts, answers /ready, and never reaches for bcoin', async () => {
      const ready = await fetch(`${api}/ready`);
      assert.equal(ready.status, 200, await ready.text());
      assert.deepEqual([...service!.output().matchAll(BLOCKED)], [], service!.output());
    });
  });
});
