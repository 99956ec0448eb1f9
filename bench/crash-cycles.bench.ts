/**
 * Crash cycles under load: `proofseal start --role api` and `--role worker` on PostgreSQL, anchoring
 * through a bcoin regtest node (run here, a block every 2 s, the worker's wallet funded). Clients post
 * data anchors all along; the tool SIGKILLs the worker, the API or both `--cycles` times at random
 * moments and starts them again at once. Every `--mid-close-every`th kill waits for the close job to be
 * active (a worker closing a batch) and measures the time from that kill to the next batch closed.
 * Then the load stops, the service drains, and the tool checks: every acknowledged (2xx) anchor is in a
 * CONFIRMED batch, no batch holds an anchor twice or loses one (leaf_count = 2 × its anchors, distinct
 * leaf indexes), and no root is carried by two transactions on chain. Exit 1 on any failure.
 * Before the schema is dropped, every acknowledged anchor not in a CONFIRMED batch is located (no row,
 * in no batch, or in which batch with which transactions), and the drain prints a timeline of batches
 * closed, sent and confirmed, so that a slow drain is told apart from a lost anchor (bench/crash-report.ts).
 * With --keep-schema a failed run leaves its schema for inspection.
 *   node --import tsx bench/crash-cycles.bench.ts [--cycles 50] [--mid-close-every 10] [--concurrency 8]
 *     [--drain-minutes 15] [--keep-schema]
 */
import type { ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { AnchoringWallet } from '../src/adapters/chain/anchoring-wallet.js';
import { BitcoinRpcClient } from '../src/adapters/chain/bitcoin-rpc.js';
import type { EmbeddedRegtest, AutoMiner } from '../src/adapters/chain/embedded-regtest.js';
import { openStore, type OpenedStore } from '../src/adapters/store/create-store.js';
import { keyVaultRepository } from '../src/adapters/store/key-vault.repository.js';
import { createAccount } from '../src/app/accounts/create-account.js';
import { createApiToken } from '../src/app/accounts/manage-api-tokens.js';
import { CLOSE_BATCH } from '../src/app/anchoring/anchoring-deps.js';
import { testDeps } from '../test/support/fixtures.js';
import { freePort } from '../test/support/processes.js';
import { dropSchema, newSchemaName, schemaUrl } from '../test/support/stores.js';
import { startLoad, type Load } from './crash-load.js';
import { drainStatus, unconfirmedReport, watchDrain, type ReportSources } from './crash-report.js';
import { bareHttpPerSecond, secpRecoveriesPerSecond } from './lib/references.js';
import { fundInSteps, startNode } from './regtest-node.js';
import { benchEnv, spawnLogged, spawnRole, stopChild, untilAnswers } from './service.js';

const { values: args } = parseArgs({
  strict: true,
  options: {
    cycles: { type: 'string', default: '50' },
    'mid-close-every': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    'drain-minutes': { type: 'string', default: '15' },
    'keep-schema': { type: 'boolean', default: false },
  },
});
const SECRET_KEY = 'crash-cycles-secret-key-of-32-characters';

interface Bench {
  schema: string;
  node: EmbeddedRegtest;
  chain: BitcoinRpcClient;
  miner: AutoMiner;
  opened: OpenedStore;
  token: string;
  port: number;
  env: Record<string, string>;
  logFd: number;
  startHeight: number;
  api: ChildProcess;
  worker: ChildProcess;
  workerStarted: Promise<boolean>;
}

/** Node, schema, funded anchoring wallet, account and token; the service not started yet. */
async function prepare(): Promise<Omit<Bench, 'api' | 'worker' | 'workerStarted' | 'miner'>> {
  const schema = newSchemaName();
  const node = await startNode();
  const chain = new BitcoinRpcClient({ url: node.rpcUrl });
  const opened = await openStore({ databaseUrl: schemaUrl(schema), embeddedDir: undefined, now: Date.now });
  const wallet = await AnchoringWallet.open({
    chain,
    vault: keyVaultRepository(opened.db, Date.now),
    utxos: opened.store.utxos,
    network: 'regtest',
    secretKey: SECRET_KEY,
  });
  for (const txid of await fundInSteps(node, wallet.address, 3)) await wallet.importDeposit(txid);
  const account = await createAccount(testDeps(opened.store), { email: 'crash@example.com', password: 'pw pw pw pw' });
  const { token } = await createApiToken(testDeps(opened.store), { accountId: account.id });
  const port = await freePort();
  const logPath = `/tmp/proofseal-crash-cycles-${schema}.log`;
  console.log(`schema ${schema}; the service's warnings and errors go to ${logPath}`);
  const env = {
    DATABASE_URL: schemaUrl(schema),
    DATA_DIR: `/tmp/proofseal-crash-cycles-${schema}`,
    SECRET_KEY,
    BITCOIN_RPC_URL: node.rpcUrl.replace(/\/$/, ''),
    BITCOIN_NETWORK: 'regtest',
    BATCH_INTERVAL_SECONDS: '1',
    CONFIRM_POLL_SECONDS: '1',
    CONFIRMATIONS_REQUIRED: '3',
    ...benchEnv(port),
  };
  const startHeight = await chain.getBlockCount();
  return { schema, node, chain, opened, token, port, env, logFd: openSync(logPath, 'a'), startHeight };
}

const start = (b: Omit<Bench, 'api' | 'worker' | 'workerStarted' | 'miner'>, role: 'api' | 'worker') =>
  spawnRole(role, b.env, ['ignore', b.logFd, b.logFd]);

/** A worker (at LOG_LEVEL=info, to see it start); `b.workerStarted` resolves once it works jobs. */
function startWorker(b: Bench): void {
  const { child, started } = spawnLogged('worker', b.env, b.logFd);
  b.worker = child;
  b.workerStarted = started;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; false when `timeoutMs` passes first. */
async function waitFor(check: () => Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(stepMs);
  }
  return false;
}

const closeActive = async (b: Bench) =>
  (await b.opened.db.query(`SELECT 1 FROM ${b.schema}_pgboss.job WHERE name = $1 AND state = 'active'`, [CLOSE_BATCH]))
    .length > 0;

const batchesClosedSince = async (b: Bench, since: number) =>
  (
    await b.opened.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM batch WHERE leaf_count > 0 AND created >= $1',
      [since],
    )
  )[0]!.n;

/**
 * A worker killed while its close job is active; a new worker started at once. Resolves with the
 * seconds from the kill to the next batch closed (null: the close job never became active, or no batch
 * closed within 10 minutes).
 */
async function midCloseKill(b: Bench): Promise<number | null> {
  await b.workerStarted;
  if (!(await waitFor(() => closeActive(b), 120_000, 20))) return null;
  await stopChild(b.worker, 'SIGKILL');
  const killedAt = Date.now();
  startWorker(b);
  const closed = await waitFor(async () => (await batchesClosedSince(b, killedAt)) > 0, 600_000, 250);
  return closed ? (Date.now() - killedAt) / 1000 : null;
}

/**
 * Once the worker works (it may still be starting after the last kill), after a random 0.3–5 s,
 * SIGKILLs the worker, the API or both, and starts them again at once.
 */
async function randomKill(b: Bench, cycle: number): Promise<string> {
  await b.workerStarted;
  await sleep(300 + Math.random() * 4700);
  const target = cycle % 5 === 0 ? 'api' : cycle % 7 === 0 ? 'both' : 'worker';
  if (target !== 'worker') {
    await stopChild(b.api, 'SIGKILL');
    b.api = start(b, 'api');
  }
  if (target !== 'api') {
    await stopChild(b.worker, 'SIGKILL');
    startWorker(b);
  }
  return target;
}

interface Cycles {
  kills: Record<string, number>;
  midClose: (number | null)[];
}

async function runCycles(b: Bench, cycles: number, midCloseEvery: number): Promise<Cycles> {
  const result: Cycles = { kills: {}, midClose: [] };
  for (let cycle = 1; cycle <= cycles; cycle++) {
    let target: string;
    if (cycle % midCloseEvery === 0) {
      const seconds = await midCloseKill(b);
      result.midClose.push(seconds);
      target = 'worker mid-close';
      console.log(`cycle ${cycle}: worker killed mid-close; next batch closed after ${seconds?.toFixed(1) ?? '—'} s`);
    } else target = await randomKill(b, cycle);
    result.kills[target] = (result.kills[target] ?? 0) + 1;
    if (cycle % 10 === 0) console.log(`cycle ${cycle} done; load average ${os.loadavg()[0]!.toFixed(2)}`);
  }
  return result;
}

/** Ids of acknowledged anchors not (yet) in a CONFIRMED batch. */
async function unconfirmed(b: Bench, acknowledged: string[]): Promise<string[]> {
  const rows = await b.opened.db.query<{ id: string }>(
    `SELECT id::text AS id FROM unnest($1::uuid[]) AS ack(id)
     WHERE NOT EXISTS (SELECT 1 FROM anchor_batch ab JOIN batch bt ON bt.id = ab.batch_id
                       WHERE ab.anchor_id = ack.id AND bt.status = 'CONFIRMED')`,
    [acknowledged],
  );
  return rows.map((r) => r.id);
}

/**
 * Batches whose anchors do not match their tree: an anchor lost from, or counted twice in, a batch. A batch
 * owns a range of anchor sequence numbers (two leaves each, migration 021): its tree must have exactly that
 * many leaves and no other batch's range may overlap it. Batches closed before 021 list their anchors.
 */
async function inconsistentBatches(b: Bench): Promise<number> {
  const rows = await b.opened.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM batch bt
     WHERE (bt.first_seq IS NOT NULL AND (
              bt.leaf_count <> 2 * (bt.last_seq - bt.first_seq + 1)
              OR EXISTS (SELECT 1 FROM batch o WHERE o.id <> bt.id AND o.first_seq IS NOT NULL
                         AND o.first_seq <= bt.last_seq AND o.last_seq >= bt.first_seq)))
        OR (bt.first_seq IS NULL AND bt.leaf_count <> 2 * (SELECT count(*) FROM anchor a WHERE a.batch_id = bt.id))`,
  );
  return rows[0]!.n;
}

/** Every OP_RETURN root on chain since the start, with the number of transactions carrying it. */
async function rootsOnChain(b: Bench): Promise<Map<string, number>> {
  const roots = new Map<string, number>();
  const tip = await b.chain.getBlockCount();
  for (let h = b.startHeight + 1; h <= tip; h++) {
    const block = (await b.chain.getBlock((await b.chain.getBlockHash(h))!))!;
    for (const txid of block.txids.slice(1)) {
      const tx = await b.chain.getRawTransaction(txid);
      for (const o of tx?.vout ?? [])
        if (o.scriptHex.startsWith('6a20')) roots.set(o.scriptHex.slice(4), (roots.get(o.scriptHex.slice(4)) ?? 0) + 1);
    }
  }
  return roots;
}

interface Verdict {
  acknowledged: number;
  stored: number;
  lost: number;
  inconsistentBatches: number;
  batches: number;
  rootsTwiceOnChain: number;
  confirmedRootsNotOnChain: number;
}

async function verdict(b: Bench, load: Load): Promise<Verdict> {
  const acknowledged = [...load.acknowledged];
  const lost = (await unconfirmed(b, acknowledged)).length;
  const [{ stored }] = (await b.opened.db.query<{ stored: number }>('SELECT count(*)::int AS stored FROM anchor')) as [
    { stored: number },
  ];
  const batches = await b.opened.db.query<{ root: Buffer }>(`SELECT root FROM batch WHERE status = 'CONFIRMED'`);
  const onChain = await rootsOnChain(b);
  return {
    acknowledged: acknowledged.length,
    stored,
    lost,
    inconsistentBatches: await inconsistentBatches(b),
    batches: batches.length,
    rootsTwiceOnChain: [...onChain.values()].filter((n) => n > 1).length,
    confirmedRootsNotOnChain: batches.filter((r) => !onChain.has(Buffer.from(r.root).toString('hex'))).length,
  };
}

const sources = (b: Bench): ReportSources => ({ db: b.opened.db, chain: b.chain, schema: b.schema });

/**
 * Stops the load, keeps one worker alive, and waits until every acknowledged anchor is CONFIRMED, printing
 * each batch closed, sent or confirmed as it happens and the state of the batching every minute.
 */
async function drain(b: Bench, load: Load, minutes: number): Promise<number> {
  await load.stop();
  const t0 = Date.now();
  const acknowledged = [...load.acknowledged];
  const watch = watchDrain(b.opened.db, t0);
  let nextStatus = t0;
  console.log(`drain: the load stopped; ${acknowledged.length} acknowledged anchors`);
  await waitFor(
    async () => {
      if (b.worker.exitCode !== null) startWorker(b);
      await watch.look();
      const left = (await unconfirmed(b, acknowledged)).length;
      if (Date.now() >= nextStatus || left === 0) {
        console.log(`  drain +${((Date.now() - t0) / 1000).toFixed(0)} s: ${await drainStatus(sources(b), left)}`);
        nextStatus += 60_000;
      }
      return left === 0;
    },
    minutes * 60_000,
    5_000,
  );
  return (Date.now() - t0) / 1000;
}

function report(c: Cycles, v: Verdict, seconds: { cycles: number; drain: number }, load: Load): boolean {
  const mid = c.midClose.map((s) => (s === null ? '—' : s.toFixed(1)));
  console.log(
    `\n[postgres, api + worker processes, bcoin regtest] ${Object.values(c.kills).reduce((a, n) => a + n, 0)} kill cycles in ${seconds.cycles.toFixed(0)} s: ${JSON.stringify(c.kills)}`,
  );
  console.log(
    `  anchor requests sent ${load.sent}, acknowledged (2xx) ${v.acknowledged}, stored ${v.stored}; answers ${JSON.stringify(load.statuses)}`,
  );
  console.log(`  lost (acknowledged, not in a CONFIRMED batch after the drain): ${v.lost}`);
  console.log(`  batches with an anchor lost or doubled: ${v.inconsistentBatches} (of ${v.batches} confirmed)`);
  console.log(
    `  roots carried by two transactions: ${v.rootsTwiceOnChain}; confirmed roots not on chain: ${v.confirmedRootsNotOnChain}`,
  );
  console.log(`  first batch after each mid-close kill (s): ${mid.join(', ')}`);
  console.log(
    `  drain after the load stopped: ${seconds.drain.toFixed(0)} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const midOk = c.midClose.every((s) => s !== null);
  return (
    v.lost === 0 &&
    v.inconsistentBatches === 0 &&
    v.rootsTwiceOnChain === 0 &&
    v.confirmedRootsNotOnChain === 0 &&
    midOk
  );
}

/** The machine's references, measured after the drain (the service idle, other engineers' jobs not). */
async function printReferences(): Promise<void> {
  const secp = secpRecoveriesPerSecond();
  const bare = await bareHttpPerSecond();
  console.log(
    `  references: libsecp256k1 ${Math.round(secp.wall)} recoveries/s on one core; bare node:http ${Math.round(bare)} requests/s (8 clients)`,
  );
}

async function main(): Promise<number> {
  const prepared = await prepare();
  const b: Bench = {
    ...prepared,
    miner: prepared.node.autoMine(2000),
    api: start(prepared, 'api'),
    worker: null as unknown as ChildProcess,
    workerStarted: Promise.resolve(false),
  };
  let passed = false;
  try {
    // One after the other: two processes creating the job engine's schema at once may collide (see docs/hardening.md).
    await untilAnswers(b.api, b.port);
    startWorker(b);
    const load = startLoad({ port: b.port, token: b.token, concurrency: Number(args.concurrency) });
    const t0 = Date.now();
    const cycles = await runCycles(b, Number(args.cycles), Number(args['mid-close-every']));
    const cyclesSeconds = (Date.now() - t0) / 1000;
    const drainSeconds = await drain(b, load, Number(args['drain-minutes']));
    const v = await verdict(b, load);
    passed = report(cycles, v, { cycles: cyclesSeconds, drain: drainSeconds }, load);
    if (v.lost > 0) for (const line of await unconfirmedReport(sources(b), [...load.acknowledged])) console.log(line);
    await printReferences();
    return passed ? 0 : 1;
  } finally {
    await stopChild(b.api, 'SIGTERM');
    if (b.worker) await stopChild(b.worker, 'SIGTERM');
    await b.miner.stop();
    await b.opened.close();
    await b.node.stop();
    if (args['keep-schema'] && !passed) console.log(`schema ${b.schema} kept for inspection (drop it when done)`);
    else await dropSchema(b.schema);
  }
}

process.exit(await main());
