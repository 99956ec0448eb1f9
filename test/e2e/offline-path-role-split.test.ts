// tier: slow (spawned processes, a bcoin regtest node, Chromium, poppler and qpdf)
/**
 * Issue 31 §4 on PostgreSQL with one `proofseal start --role api` and one `--role worker` process, set up as the
 * README's "Running on PostgreSQL and with several processes" says (operator commands for the account, the token,
 * the platform key and the wallet's funding). Bitcoin is a node of the operator's own (BITCOIN_RPC_URL; a bcoin
 * regtest node in this process stands in for it): without it the worker's embedded node lives in the worker's
 * memory, which neither the api process nor `proofseal headers` can reach (no operator socket on PostgreSQL).
 * Then the same offline path as on the default run (../support/offline-path.ts).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe } from 'node:test';
import { EmbeddedRegtest, type AutoMiner } from '../../src/adapters/chain/embedded-regtest.js';
import { chromiumSkip } from '../support/chromium.js';
import { cli } from '../support/default-run.js';
import { offlinePathTests } from '../support/offline-path.js';
import { freePort, startProofseal, type Proc } from '../support/processes.js';
import { regtestEnv } from '../support/regtest-fixture.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../support/stores.js';

const [, postgres] = await storeKinds();
const skip = postgres!.skip || chromiumSkip();

describe('the offline path on PostgreSQL, --role api + --role worker', { skip }, () => {
  offlinePathTests(async () => {
    const schema = newSchemaName();
    const node = await EmbeddedRegtest.start();
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: schemaUrl(schema),
      DATA_DIR: `/tmp/proofseal-offline-split-${schema}`,
      SECRET_KEY: 's'.repeat(40),
      ...regtestEnv(node),
      PORT: String(port),
      PUBLIC_URL: apiUrl,
      BATCH_INTERVAL_SECONDS: '2',
      CONFIRM_POLL_SECONDS: '1',
      LOG_LEVEL: 'warn',
    };
    const operator = async (args: string[]) => {
      const r = await cli(args, env);
      assert.equal(r.code, 0, `proofseal ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      return r.stdout.trim();
    };
    await operator(['account', 'create', '--email', 'owner@example.com', '--password', 'owner password 31']);
    const token = await operator(['token', 'create', '--email', 'owner@example.com', '--name', 'e2e']);
    await operator(['identity', 'key', 'create', '--name', 'platform', '--cn', 'proofseal']);
    const { address } = JSON.parse(await operator(['wallet', '--json'])) as { address: string };
    for (const txid of await node.fund(address, 1)) await operator(['wallet', 'import', txid]);
    const miner: AutoMiner = node.autoMine(1000);
    const procs: Proc[] = [];
    const all: Proc[] = [];
    const started = { ...(env as Record<string, string>), LOG_LEVEL: 'info' };
    for (const role of ['api', 'worker'])
      procs.push(await startProofseal(['start', '--role', role], started, /proofseal started/));
    all.push(...procs);
    const stop = async () => {
      for (const p of procs.splice(0)) assert.equal(await p.stop(), 0, p.output().slice(-2000));
    };
    return {
      apiUrl,
      cli: (args) => cli(args, { ...env, PROOFSEAL_API_URL: apiUrl, PROOFSEAL_TOKEN: token }),
      output: () => all.map((p) => p.output()).join('\n--- next process:\n'),
      stop,
      close: async () => {
        await Promise.all(procs.splice(0).map((p) => p.stop()));
        await miner.stop();
        await node.stop();
        await dropSchema(schema);
        rmSync(env.DATA_DIR!, { recursive: true, force: true });
      },
    };
  });
});
