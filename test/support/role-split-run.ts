/**
 * `proofseal start --role api` and `--role worker` on a PostgreSQL schema of their own, set up with the operator
 * commands the README's "Running on PostgreSQL and with several processes" lists (account, token, platform key).
 * Bitcoin: the worker's embedded regtest node (no BITCOIN_RPC_URL; the api process then has no node at all), or
 * with `node` a node of the operator's own (BITCOIN_RPC_URL, for both processes; its wallet funded here and a
 * block mined every second).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { AutoMiner, EmbeddedRegtest } from '../../src/adapters/chain/embedded-regtest.js';
import { cli, type CliResult } from './default-run.js';
import { freePort, startProofseal, type Proc } from './processes.js';
import { regtestEnv } from './regtest-fixture.js';
import { dropSchema, newSchemaName, schemaUrl } from './stores.js';

export interface RoleSplitRun {
  readonly apiUrl: string;
  /** The owner's API token. */
  readonly token: string;
  /** The settings every process and command of the run shares (the operator's shell). */
  readonly env: NodeJS.ProcessEnv;
  /** `proofseal <args>` with the run's settings and the owner's API URL and token. */
  cli(args: string[]): Promise<CliResult>;
  output(): string;
  /** SIGTERM to the api and the worker; each must exit 0. */
  stop(): Promise<void>;
  /** Stops what runs, drops the schema, removes DATA_DIR (the operator's node is the caller's). */
  close(): Promise<void>;
}

/**
 * Starts the run; `extra` adds settings (TSA_URLS…); `remoteIdentity` adds a `--role identity` process holding the
 * platform key, which the api and the worker reach over HTTP (PLATFORM_IDENTITY_URL). Resolves once every process
 * said it started.
 */
export async function startRoleSplit(
  o: { node?: EmbeddedRegtest; extra?: Record<string, string>; remoteIdentity?: boolean } = {},
): Promise<RoleSplitRun> {
  const schema = newSchemaName();
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: schemaUrl(schema),
    DATA_DIR: `/tmp/proofseal-split-${schema}`,
    SECRET_KEY: 's'.repeat(40),
    ...(o.node && regtestEnv(o.node)),
    PORT: String(port),
    PUBLIC_URL: apiUrl,
    BATCH_INTERVAL_SECONDS: '2',
    CONFIRM_POLL_SECONDS: '1',
    REGTEST_BLOCK_INTERVAL_SECONDS: '1',
    LOG_LEVEL: 'warn',
    ...o.extra,
  };
  if (o.remoteIdentity) {
    const identityPort = await freePort();
    env.IDENTITY_PORT = String(identityPort);
    env.IDENTITY_PUBLIC_URL = `http://127.0.0.1:${identityPort}`;
  }
  const operator = async (args: string[]) => {
    const r = await cli(args, env);
    assert.equal(r.code, 0, `proofseal ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout.trim();
  };
  await operator(['account', 'create', '--email', 'owner@example.com', '--password', 'owner password 31']);
  const token = await operator(['token', 'create', '--email', 'owner@example.com', '--name', 'e2e']);
  await operator(['identity', 'key', 'create', '--name', 'platform', '--cn', 'proofseal']);
  const roles = ['api', 'worker'];
  if (o.remoteIdentity) {
    env.PLATFORM_IDENTITY_TOKEN = await operator(['identity', 'token', 'create', '--name', 'platform']);
    env.PLATFORM_IDENTITY_URL = env.IDENTITY_PUBLIC_URL;
    roles.unshift('identity');
  }
  let miner: AutoMiner | undefined;
  if (o.node) {
    const { address } = JSON.parse(await operator(['wallet', '--json'])) as { address: string };
    for (const txid of await o.node.fund(address, 1)) await operator(['wallet', 'import', txid]);
    miner = o.node.autoMine(1000);
  }
  const procs: Proc[] = [];
  const all: Proc[] = [];
  const started = { ...(env as Record<string, string>), LOG_LEVEL: 'info' };
  try {
    for (const role of roles)
      all.push(procs[procs.push(await startProofseal(['start', '--role', role], started, /proofseal started/)) - 1]!);
  } catch (err) {
    // A role that did not start: the ones that did are stopped, so none outlives the test.
    await Promise.all(procs.map((p) => p.stop()));
    await miner?.stop();
    throw err;
  }
  return {
    apiUrl,
    token,
    env,
    cli: (args) => cli(args, { ...env, PROOFSEAL_API_URL: apiUrl, PROOFSEAL_TOKEN: token }),
    output: () => all.map((p) => p.output()).join('\n--- next process:\n'),
    stop: async () => {
      for (const p of procs.splice(0)) assert.equal(await p.stop(), 0, p.output().slice(-2000));
    },
    close: async () => {
      await Promise.all(procs.splice(0).map((p) => p.stop()));
      await miner?.stop();
      await dropSchema(schema);
      rmSync(env.DATA_DIR!, { recursive: true, force: true });
    },
  };
}
