/**
 * Receipts through HTTP on real sockets, beside a bare node:http server measured in the same run.
 * For each store (PGlite on a folder, PostgreSQL) and each size (100,000 and 1,000,000 anchors stored), a
 * child process fills the store in bulk SQL (not through HTTP), closes ONE batch over every anchor with
 * the real `closeBatch`, gives it a confirmed transaction, and serves the API; this process is the load
 * generator (64 keep-alive connections, GET /v1/receipt/{id} over 1,000 random anchors of the batch):
 *   - "revalidated": the batch is confirmed but still under the reorg watch: each receipt comes from the parts
 *     the API process keeps of it plus a fresh read of its batch's transaction (one small statement, shared by
 *     the concurrent requests for the batch) — what a receipt costs while it may still change;
 *   - "first read": 10,000 other anchors, each asked once: the whole receipt read from the store (one statement);
 *   - "settled": the batch is below the reorg watch, receipts come from the API process's memory.
 * For each, the API process's CPU time per 1,000 receipts.
 * `--mode random` (bench/lib/random-receipts.ts): each request a uniformly random anchor of ALL stored, in
 * batches of `--batch-size`, first with the last `--unsettled` batches still under the reorg watch, then
 * every batch settled; each API process fresh on the seeded store, its CPU per 1,000 receipts and RSS;
 * `--baseline DIR` also serves from another checkout (DIR/src, DIR/test/support) and `--levels-mb a,b`
 * runs the API with each RECEIPT_LEVELS_MB, alternating (`--rounds` times), so before and after share the
 * same minutes, each after a run of the bare server of its own;
 * `--redirect` adds an API run with RECEIPT_REDIRECT (static settled receipts; with `--baseline`, one of the
 * baseline too): a receipt recorded as written
 * is answered 302 to its static object (the objects themselves are not written nor fetched: a CDN serves them);
 * `--profile` prints where the API's time went (V8 sampling profile of the measured run).
 * The public rate limit is raised through its setting (RATE_LIMIT_PUBLIC_PER_MINUTE), as an operator would.
 * References in the same run: the bare server answering a body of a receipt's size, libsecp256k1 recoveries
 * on one core, and the load average. Never fails on a timing.
 * Run: node --import tsx bench/receipts.bench.ts [--store pglite|postgres|both] [--anchors 100000,1000000]
 *                                                 [--requests 20000] [--concurrency 64]
 *      node --import tsx bench/receipts.bench.ts --mode random [--store …] [--anchors …] [--requests 20000]
 *                        [--batch-size 50000] [--unsettled 1] [--levels-mb 0,32] [--baseline DIR] [--rounds 1] [--profile] [--redirect]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hammerGets, startBareServer, type LoadResult } from './http-load.js';
import { rawRequest, runLoad, percentile, type LoadResult as RawLoad } from './lib/http-load.js';
import {
  benchAnchorId,
  markStaticReceiptsWritten,
  rssMb,
  seedRandomStore,
  serveRandomStore,
  settleAll,
  type SeedPlan,
} from './lib/random-receipts.js';
import { recoveriesPerSecond } from './lib/references.js';
import { backendPids, cpuSeconds } from './lib/service-process.js';
import { useServiceSecp } from './lib/service-secp.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '100000,1000000' },
    requests: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    serve: { type: 'string' },
    body: { type: 'string', default: '1500' },
    mode: { type: 'string', default: 'hot' },
    'batch-size': { type: 'string', default: '50000' },
    unsettled: { type: 'string', default: '1' },
    'levels-mb': { type: 'string', default: '' },
    baseline: { type: 'string' },
    profile: { type: 'boolean', default: false },
    redirect: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    plan: { type: 'string' },
    root: { type: 'string' },
    env: { type: 'string', default: '{}' },
  },
});
const HOT_IDS = 1_000;
const COLD_IDS = 10_000;
const CHUNK = 100_000;

// ---------------------------------------------------------------- servers (child processes)

/** Fills a store with `n` anchors in one closed, confirmed batch and serves the API on it. */
async function serveApi(storeName: string, n: number): Promise<void> {
  const { openStore } = await import('../src/adapters/store/create-store.js');
  const { buildApp } = await import('../src/http/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { dropSchema, newSchemaName, schemaUrl } = await import('../test/support/stores.js');
  await useServiceSecp();
  const schema = newSchemaName();
  const dir = storeName === 'pglite' ? await mkdtemp(path.join(os.tmpdir(), 'proofseal-receipts-')) : undefined;
  const opened = await openStore({
    databaseUrl: storeName === 'postgres' ? schemaUrl(schema) : undefined,
    // A folder of its own: the embedded store's lock sits beside its folder (DATA_DIR/pglite, as npm start keeps it).
    embeddedDir: dir && path.join(dir, 'pglite'),
    now: Date.now,
  });
  const deps = {
    store: opened.withJobs(() => ({ send: async () => null })),
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    jobs: { send: async () => null },
    secretKey: 'bench-secret-key-of-at-least-32-characters',
  };
  const t0 = performance.now();
  const { batchId, ids } = await seedConfirmedBatch(opened, deps, n);
  const seedSeconds = (performance.now() - t0) / 1000;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
  });
  const app = await buildApp({ ...deps, readiness: {} }, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.send!({ port, ids, seedSeconds });
  process.on('message', async (m: string) => {
    if (m === 'settle') {
      await opened.store.batches.settleUpTo(1);
      process.send!({ settled: (await opened.store.batches.findById(batchId))?.status });
    }
    if (m === 'stats') process.send!({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpuMs: (user + system) / 1000 });
    }
    if (m === 'stop') {
      await app.close();
      await opened.close();
      if (storeName === 'postgres') await dropSchema(schema);
      if (dir) await rm(dir, { recursive: true, force: true });
      process.exit(0);
    }
  });
}

type SeedDeps = Parameters<typeof import('../src/app/anchoring/close-batch.js').closeBatch>[0];

/** `n` data anchors in bulk SQL, one batch closed over them, SENT and confirmed at height 1 (not settled). */
async function seedConfirmedBatch(
  opened: import('../src/adapters/store/create-store.js').OpenedStore,
  deps: SeedDeps,
  n: number,
): Promise<{ batchId: string; ids: string[] }> {
  const { createAccount } = await import('../src/app/accounts/create-account.js');
  const { closeBatch } = await import('../src/app/anchoring/close-batch.js');
  const account = await createAccount(deps as never, { email: 'bench@example.com', password: 'bench password 123' });
  for (let done = 0; done < n; done += CHUNK) {
    await opened.db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
       SELECT gen_random_uuid(), $1, 'bench', 'data', encode(l, 'hex'), l, 0, 0 FROM unnest($2::bytea[]) AS l`,
      [account.id, Array.from({ length: Math.min(CHUNK, n - done) }, () => randomBytes(32))],
    );
  }
  const closed = (await closeBatch(deps, { maxSize: n }))!;
  const batches = opened.store.batches;
  const txId = randomBytes(32).toString('hex');
  await batches.markSent(closed.batchId, txId, Date.now());
  const block = { txId, blockHash: randomBytes(32).toString('hex'), blockHeight: 1, blockTime: Date.now() };
  await batches.recordConfirmation(
    closed.batchId,
    { ...block, rawTx: '00', txMerkleBranch: { siblings: [], index: 0 }, blockHeader: '00'.repeat(80) },
    6,
    Date.now(),
  );
  await batches.setConfirmations(closed.batchId, { confirmations: 6, confirmed: true }, Date.now());
  const rows = await opened.db.query<{ id: string }>('SELECT id FROM anchor ORDER BY random() LIMIT $1', [
    HOT_IDS + COLD_IDS,
  ]);
  return { batchId: closed.batchId, ids: rows.map((r) => r.id) };
}

async function serveBare(bodySize: number): Promise<void> {
  const server = await startBareServer(JSON.stringify({ pad: 'x'.repeat(Math.max(0, bodySize - 10)) }));
  process.send!({ port: server.port });
  process.on('message', (m: string) => {
    if (m === 'stop') void server.close().then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- client (this process)

function spawnServer(extra: string[]): ChildProcess {
  return fork(new URL(import.meta.url).pathname, extra, { execArgv: ['--import', 'tsx'] });
}

/** The child's next message; rejects when it exits first. */
function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`server process exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.send('stop');
  await exited;
}

/** A warm-up pass, then the measured one. */
async function measure(port: number, pathOf: (i: number) => string): Promise<LoadResult> {
  const total = Number(args.requests);
  const concurrency = Number(args.concurrency);
  await hammerGets(port, Math.min(total, 4_000), concurrency, pathOf);
  return hammerGets(port, total, concurrency, pathOf);
}

async function bareReference(bodySize: number): Promise<LoadResult> {
  const bare = spawnServer(['--serve', 'bare', '--body', String(bodySize)]);
  const { port } = await nextMessage<{ port: number }>(bare);
  const result = await measure(port, () => '/');
  await stop(bare);
  return result;
}

/** The API process's CPU milliseconds per 1,000 requests of `run`. */
async function cpuPer1000(api: ChildProcess, requests: number, run: () => Promise<LoadResult>) {
  api.send('cpu');
  const before = (await nextMessage<{ cpuMs: number }>(api)).cpuMs;
  const result = await run();
  api.send('cpu');
  const after = (await nextMessage<{ cpuMs: number }>(api)).cpuMs;
  return { result, cpuMs: ((after - before) * 1000) / requests };
}

const fmt = (r: LoadResult) => `${Math.round(r.perSecond)}/s p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms`;
const ratio = (r: LoadResult, bare: LoadResult) =>
  `${Math.round((100 * r.perSecond) / bare.perSecond)} % of bare, p99 ${(r.p99 / bare.p99).toFixed(1)}×`;

async function benchCase(storeName: string, n: number): Promise<void> {
  const api = spawnServer(['--serve', storeName, '--anchors', String(n)]);
  const { port, ids: all, seedSeconds } = await nextMessage<{ port: number; ids: string[]; seedSeconds: number }>(api);
  const ids = all.slice(0, HOT_IDS);
  const cold = all.slice(HOT_IDS);
  const pathOf = (i: number) => `/v1/receipt/${ids[i % ids.length]}`;
  const sample = await fetch(`http://127.0.0.1:${port}${pathOf(0)}`);
  const bodySize = (await sample.text()).length;
  const bare = await bareReference(bodySize);
  const total = Number(args.requests);
  await hammerGets(port, Math.min(total, 4_000), Number(args.concurrency), pathOf);
  const revalidated = await cpuPer1000(api, total, () => hammerGets(port, total, Number(args.concurrency), pathOf));
  const firstRead = await cpuPer1000(api, cold.length, () =>
    hammerGets(port, cold.length, Number(args.concurrency), (i) => `/v1/receipt/${cold[i]}`),
  );
  api.send('settle');
  await nextMessage(api);
  await hammerGets(port, Math.min(total, 4_000), Number(args.concurrency), pathOf);
  const settled = await cpuPer1000(api, total, () => hammerGets(port, total, Number(args.concurrency), pathOf));
  api.send('stats');
  const { maxRssMb } = await nextMessage<{ maxRssMb: number }>(api);
  await stop(api);
  console.log(
    `\n[${storeName}] ${n} anchors stored in one batch (filled and closed in ${seedSeconds.toFixed(0)} s); receipt ${sample.status}, ${bodySize} bytes`,
  );
  console.log(
    `  reference, bare node:http (${bodySize}-byte JSON): ${fmt(bare)}; statuses ${JSON.stringify(bare.statuses)}`,
  );
  const line = (label: string, m: { result: LoadResult; cpuMs: number }) =>
    console.log(
      `  ${label} ${fmt(m.result)} = ${ratio(m.result, bare)}; API CPU ${m.cpuMs.toFixed(0)} ms / 1,000; statuses ${JSON.stringify(m.result.statuses)}`,
    );
  line('receipts, revalidated (kept parts + batch state):', revalidated);
  line('receipts, first read (one statement each):       ', firstRead);
  line('receipts, settled (from memory):                 ', settled);
  console.log(
    `  API process peak RSS ${maxRssMb} MB; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

// ---------------------------------------------------------------- random mode (this process)

/** Runs a child of this file to its first message. */
async function childOnce<T>(extra: string[]): Promise<T> {
  const child = spawnServer(extra);
  const m = await nextMessage<T>(child);
  await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  return m;
}

interface ApiVariant {
  readonly label: string;
  readonly root: string;
  readonly env: Record<string, string>;
}

const rawRate = (r: RawLoad) => r.requests / r.seconds;
const rawLine = (r: RawLoad) =>
  `${Math.round(rawRate(r))}/s p50 ${percentile(r.latencies, 0.5).toFixed(1)} ms p99 ${percentile(r.latencies, 0.99).toFixed(1)} ms`;

/** Random anchors of 1..n, `total` requests over 64 connections. */
function randomLoad(port: number, n: number, total: number): Promise<RawLoad> {
  return runLoad({
    port,
    connections: Number(args.concurrency),
    total,
    request: () => rawRequest('GET', `/v1/receipt/${benchAnchorId(1 + Math.floor(Math.random() * n))}`, {}),
  });
}

/** The bare server answering a body of `bodySize` bytes, with its CPU per 1,000 requests. */
async function randomBare(bodySize: number): Promise<{ load: RawLoad; cpu: number }> {
  const bare = spawnServer(['--serve', 'bare', '--body', String(bodySize)]);
  const { port } = await nextMessage<{ port: number }>(bare);
  const request = () => rawRequest('GET', '/', {});
  const connections = Number(args.concurrency);
  const total = Number(args.requests);
  await runLoad({ port, connections, total: 2_000, request });
  const cpu0 = cpuSeconds([bare.pid!]);
  const load = await runLoad({ port, connections, total, request });
  const cpu = ((cpuSeconds([bare.pid!]) - cpu0) * 1e6) / total;
  await stop(bare);
  return { load, cpu };
}

/** The CPU seconds of the PostgreSQL backends named `schema` (the API's), when on PostgreSQL. */
async function backendCpu(plan: SeedPlan): Promise<() => Promise<number>> {
  if (plan.store !== 'postgres') return async () => 0;
  const { default: pg } = await import('pg');
  const { POSTGRES_URL } = await import('../test/support/stores.js');
  const db = new pg.Client({ connectionString: POSTGRES_URL });
  await db.connect();
  const pids = await backendPids(db, plan.schema!);
  await db.end();
  return async () => cpuSeconds(pids);
}

/**
 * One API process of `variant` on the seeded store: a short warm-up, then the measured random run, after the
 * bare server's own run (so each ratio compares runs a few seconds apart).
 */
async function randomApiRun(variant: ApiVariant, plan: SeedPlan): Promise<void> {
  if (variant.env.RECEIPT_REDIRECT) await childOnce(['--serve', 'mark-static', '--plan', JSON.stringify(plan)]);
  const { load: bare, cpu: bareCpu } = await randomBare(1500);
  const api = spawnServer([
    '--serve',
    'random',
    '--root',
    variant.root,
    '--plan',
    JSON.stringify(plan),
    '--env',
    JSON.stringify(variant.env),
  ]);
  const { port } = await nextMessage<{ port: number }>(api);
  const total = Number(args.requests);
  await randomLoad(port, plan.anchors, 2_000);
  if (args.profile) {
    api.send('profile-start');
    await nextMessage(api);
  }
  let peak = rssMb(api.pid!);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.pid!))), 200);
  const backends = await backendCpu(plan);
  const cpu0 = cpuSeconds([api.pid!]);
  const db0 = await backends();
  const result = await randomLoad(port, plan.anchors, total);
  const cpu = ((cpuSeconds([api.pid!]) - cpu0) * 1e6) / total;
  const dbCpu = (((await backends()) - db0) * 1e6) / total;
  clearInterval(sampler);
  const statuses = JSON.stringify(Object.fromEntries(result.statuses));
  const p99x = percentile(result.latencies, 0.99) / percentile(bare.latencies, 0.99);
  console.log(`    ${'bare node:http'.padEnd(22)} ${rawLine(bare)}; CPU ${bareCpu.toFixed(0)} ms / 1,000`);
  const db = plan.store === 'postgres' ? `, PostgreSQL ${dbCpu.toFixed(0)} ms` : '';
  console.log(
    `    ${variant.label.padEnd(22)} ${rawLine(result)} = ${Math.round((100 * rawRate(result)) / rawRate(bare))} % of bare, p99 ${p99x.toFixed(1)}×; CPU / 1,000: API ${cpu.toFixed(0)} ms${db}; API RSS peak ${peak} MB; statuses ${statuses}`,
  );
  if (args.profile) {
    api.send('profile-stop');
    const { summary } = await nextMessage<{ summary: string[] }>(api);
    for (const l of summary) console.log(`      ${l}`);
  }
  await stop(api);
}

async function randomCase(store: 'pglite' | 'postgres', n: number, variants: ApiVariant[]): Promise<void> {
  const batchSize = Number(args['batch-size']);
  const { newSchemaName, dropSchema } = await import('../test/support/stores.js');
  const schema = newSchemaName();
  const dir = store === 'pglite' ? await mkdtemp(path.join(os.tmpdir(), 'proofseal-random-')) : undefined;
  const plan: SeedPlan = { store, anchors: n, batchSize, unsettled: Number(args.unsettled), schema, dir };
  const { seconds } = await childOnce<{ seconds: number }>(['--serve', 'seed-random', '--plan', JSON.stringify(plan)]);
  const batches = Math.ceil(n / batchSize);
  console.log(
    `\n[${store}] ${n} anchors in ${batches} batches of ${batchSize} (seeded in ${seconds.toFixed(0)} s); ${Number(args.requests)} requests, each a uniformly random anchor of all ${n}`,
  );
  try {
    for (const phase of ['unsettled', 'settled'] as const) {
      if (phase === 'settled') await childOnce(['--serve', 'settle-random', '--plan', JSON.stringify(plan)]);
      const label =
        phase === 'settled' ? 'every batch settled' : `the last ${plan.unsettled} of ${batches} batches unsettled`;
      console.log(
        `  ${label}; load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
      for (let round = 0; round < Number(args.rounds); round++) for (const v of variants) await randomApiRun(v, plan);
    }
  } finally {
    if (store === 'postgres') await dropSchema(schema);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** RECEIPT_REDIRECT on, towards a CDN that is never asked (the load generator does not follow redirects). */
const REDIRECT_ENV = {
  OBJECT_STORE_URL: 'http://bench:bench@127.0.0.1:9/bench-bucket',
  STATIC_RECEIPTS_URL: 'https://cdn.example/receipts/',
  RECEIPT_REDIRECT: 'true',
};

async function randomMode(): Promise<void> {
  const here = path.resolve(new URL('..', import.meta.url).pathname);
  const levels = args['levels-mb'] ? args['levels-mb'].split(',') : [];
  const variants: ApiVariant[] = [
    ...(args.baseline ? [{ label: 'baseline', root: path.resolve(args.baseline), env: {} }] : []),
    ...(levels.length === 0
      ? [{ label: 'this tree', root: here, env: {} }]
      : levels.map((mb) => ({ label: `levels ${mb} MB`, root: here, env: { RECEIPT_LEVELS_MB: mb } }))),
    ...(args.redirect && args.baseline
      ? [{ label: 'baseline redirect', root: path.resolve(args.baseline), env: REDIRECT_ENV }]
      : []),
    ...(args.redirect ? [{ label: 'redirect (static)', root: here, env: REDIRECT_ENV }] : []),
  ];
  const stores = (args.store === 'both' ? ['pglite', 'postgres'] : [args.store!]) as ('pglite' | 'postgres')[];
  console.log(`receipts, random: GET /v1/receipt/{id}, ${args.concurrency} keep-alive connections`);
  for (const store of stores)
    for (const n of args.anchors!.split(',').map(Number)) await randomCase(store, n, variants);
}

// ---------------------------------------------------------------- entry

if (args.serve === 'bare') await serveBare(Number(args.body));
else if (args.serve === 'seed-random') {
  const seconds = await seedRandomStore(JSON.parse(args.plan!) as SeedPlan);
  process.send!({ seconds });
} else if (args.serve === 'settle-random') {
  await settleAll(JSON.parse(args.plan!) as SeedPlan);
  process.send!({ settled: true });
} else if (args.serve === 'mark-static') {
  await markStaticReceiptsWritten(JSON.parse(args.plan!) as SeedPlan);
  process.send!({ marked: true });
} else if (args.serve === 'random') {
  await serveRandomStore(
    args.root!,
    JSON.parse(args.plan!) as SeedPlan,
    JSON.parse(args.env!) as Record<string, string>,
  );
} else if (args.serve) await serveApi(args.serve, Number(args.anchors));
else if (args.mode === 'random') await randomMode();
else {
  const stores = args.store === 'both' ? ['pglite', 'postgres'] : [args.store!];
  const recover = await recoveriesPerSecond();
  console.log(
    `receipts: GET /v1/receipt/{id}, ${args.concurrency} keep-alive connections, ${HOT_IDS} random anchors of the batch`,
  );
  console.log(
    `  reference, secp256k1 (${recover.backend}) recoveries on one core: ${Math.round(recover.perSecond)}/s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const store of stores) for (const n of args.anchors!.split(',').map(Number)) await benchCase(store, n);
}
