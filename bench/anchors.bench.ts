/**
 * Anchors through HTTP on real sockets: the API runs in a child process, this process is the client
 * (64 concurrent keep-alive connections, Bearer auth, signature anchors signed beforehand; the light
 * load generator of bench/lib/http-load.ts). Measures its references first, in the same run
 * (libsecp256k1 recoveries/s on one core, a bare node:http server under the same load), then prints
 * anchors accepted/s with the ratios to both, receipts served/s and latency with `--receipts N`
 * anchors stored in one batch (0: no receipts), and the server's peak RSS. Run on each store:
 *   node --import tsx bench/anchors.bench.ts [--store embedded|postgres|both] [--anchors 30000] [--receipts 100000] [--concurrency 64]
 *     [--processes N] [--verify-threads N] [--log-level silent|info|…] [--profile [--profile-file PATH]]
 * `--processes N` (PostgreSQL): N API processes on one port (node:cluster), as `proofseal start --role api --processes N`;
 * `--verify-threads N`: signatures verified in N worker threads per API process (VERIFY_THREADS; 0, the default as
 * in the service: on the event loop). `--log-level`: the server's LOG_LEVEL (default silent; the service's default,
 * info, writes two lines per request), its log written to /dev/null.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import cluster from 'node:cluster';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeLoad, percentile, rateOf, rawRequest, runLoad, type LoadResult } from './lib/http-load.js';
import { loadAverage, measureReferences } from './lib/references.js';
import { signatureBodies } from './lib/anchor-bodies.js';
import { backendPids, cpuSeconds, freePort } from './lib/service-process.js';
import { useServiceSecp } from './lib/service-secp.js';
import { startProfiling, stopProfiling, summarizeProfile } from './lib/cpu-profile.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '30000' },
    receipts: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '30000' },
    auth: { type: 'string', default: 'bearer' },
    concurrency: { type: 'string', default: '64' },
    serve: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
    'verify-threads': { type: 'string', default: '0' },
    'profile-file': { type: 'string' },
    'log-level': { type: 'string', default: 'silent' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// ---------------------------------------------------------------- server (child process)

interface ServerSetup {
  readonly url: string | undefined;
  readonly schema: string;
}

/** The server: one process, or with `--processes N` (PostgreSQL) a node:cluster primary and N API processes on one port. */
async function serve(store: string, receiptCount: number): Promise<void> {
  const processes = Number(args.processes);
  if (cluster.isWorker) return serveClusterWorker();
  const schema = `t_bench_${randomBytes(4).toString('hex')}`;
  // application_name names this run's PostgreSQL backends, so the client can read their CPU time.
  const url = store === 'postgres' ? `${POSTGRES_URL}?schema=${schema}&application_name=${schema}` : undefined;
  if (processes > 1 && store !== 'postgres') throw new Error('--processes > 1 needs --store postgres');
  const setup = { url, schema };
  const { opened, deps } = await openBenchStore(setup, 12);
  const { createAccount } = await import('../src/app/accounts/create-account.js');
  const { createApiToken } = await import('../src/app/accounts/manage-api-tokens.js');
  const account = await createAccount(deps, { email: 'bench@example.com', password: 'bench password 123' });
  const { token } = await createApiToken(deps, { accountId: account.id });
  const receiptIds = await seedBatch(opened.db, account.id, receiptCount);
  const ready = { token, schema, receiptIds: receiptIds.slice(0, 20_000) };
  if (processes > 1) return serveCluster(setup, processes, ready, opened);
  const app = await benchApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.send!({ ready: true, port, pids: [process.pid], ...ready });
  process.on('message', async (m: string) => {
    if (m === 'stats') process.send!({ maxRssMb: [Math.round(process.resourceUsage().maxRSS / 1024)] });
    if (m === 'profile-start') await startProfiling().then(() => process.send!({ profiling: true }));
    if (m === 'profile-stop') {
      const profile = await stopProfiling();
      if (args['profile-file']) writeFileSync(args['profile-file'], JSON.stringify(profile));
      process.send!({ profile: summarizeProfile(profile) });
    }
    if (m === 'stop') {
      await app.close();
      await dropAndExit(store, setup, opened);
    }
  });
}

async function openBenchStore(setup: ServerSetup, poolSize: number) {
  const { openStore } = await import('../src/adapters/store/create-store.js');
  await useServiceSecp();
  const opened = await openStore({ databaseUrl: setup.url, embeddedDir: undefined, now: Date.now, poolSize });
  const threads = Number(args['verify-threads']);
  const pool = threads > 0 ? await import('../src/adapters/system/signature-verify-pool.js') : undefined;
  const deps = {
    signatureVerifier: pool?.signatureVerifyPool(threads),
    store: opened.store,
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    jobs: { send: async () => null },
    secretKey: 'bench-secret-key-of-at-least-32-characters',
  };
  return { opened, deps };
}

async function benchApp(deps: Awaited<ReturnType<typeof openBenchStore>>['deps']) {
  const { buildApp } = await import('../src/http/app.js');
  const { loadConfig } = await import('../src/config.js');
  const config = loadConfig({
    LOG_LEVEL: args['log-level'],
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
  });
  return buildApp({ ...deps, readiness: {} }, config);
}

async function dropAndExit(
  store: string,
  setup: ServerSetup,
  opened: Awaited<ReturnType<typeof openBenchStore>>['opened'],
): Promise<never> {
  await opened.db.exec(`SELECT 1`);
  await opened.close();
  if (store === 'postgres') {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${setup.schema} CASCADE`);
    await c.end();
  }
  process.exit(0);
}

/** The primary: forks the API processes on one free port, reports their pids, stops them on 'stop'. */
async function serveCluster(
  setup: ServerSetup,
  processes: number,
  ready: object,
  opened: Awaited<ReturnType<typeof openBenchStore>>['opened'],
): Promise<void> {
  const port = await freePort();
  const workers = Array.from({ length: processes }, () =>
    cluster.fork({ BENCH_CLUSTER: JSON.stringify({ ...setup, port, poolSize: Math.ceil(12 / processes) }) }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('listening', resolve))));
  const pids = [process.pid, ...workers.map((w) => w.process.pid!)];
  process.send!({ ready: true, port, pids, ...ready });
  process.on('message', async (m: string) => {
    if (m === 'stats') process.send!({ maxRssMb: pids.slice(1).map(peakRssMb) });
    if (m === 'stop') {
      await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve).kill())));
      await dropAndExit('postgres', setup, opened);
    }
  });
}

/** An API process of the cluster: its own store connection and app, on the primary's port. */
async function serveClusterWorker(): Promise<void> {
  const setup = JSON.parse(process.env.BENCH_CLUSTER!) as ServerSetup & { port: number; poolSize: number };
  const { deps } = await openBenchStore(setup, setup.poolSize);
  const app = await benchApp(deps);
  await app.listen({ port: setup.port, host: '127.0.0.1' });
}

/** Peak RSS of a process in MB (VmHWM). */
function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb ?? 0) / 1024);
}

/** `count` data anchors in one SENT batch, written in bulk; returns their ids (random order). */
async function seedBatch(
  db: import('../src/adapters/store/sql.js').SqlDatabase,
  accountId: string,
  count: number,
): Promise<string[]> {
  if (count === 0) return [];
  const { buildMerkleTreeFromPacked, merkleRoot, serializeTree } = await import('../src/core/merkle/index.js');
  const packed = randomBytes(count * 32);
  const tree = buildMerkleTreeFromPacked(packed);
  const batchId = randomUUID();
  const now = Date.now();
  await db.query(
    `INSERT INTO batch (id, status, root, leaf_count, tree, tx_id, confirmations, created, last_modified) VALUES ($1,'SENT',$2,$3,$4,$5,0,$6,$6)`,
    [batchId, Buffer.from(merkleRoot(tree)), count, serializeTree(tree), randomBytes(32).toString('hex'), now],
  );
  const ids: string[] = [];
  for (let start = 0; start < count; start += 20_000) {
    const n = Math.min(20_000, count - start);
    const chunkIds = Array.from({ length: n }, () => randomUUID());
    ids.push(...chunkIds);
    const leaves = Array.from({ length: n }, (_, i) =>
      packed.subarray((start + i) * 32, (start + i + 1) * 32).toString('hex'),
    );
    await db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, batch_id, leaf_index, created, last_modified)
       SELECT t.id, $1, 'seed', 'data', t.h, decode(t.h, 'hex'), $2, $3 + t.i - 1, $4, $4 FROM unnest($5::uuid[], $6::text[]) WITH ORDINALITY AS t(id, h, i)`,
      [accountId, batchId, start, now, chunkIds, leaves],
    );
  }
  return ids.sort(() => Math.random() - 0.5);
}

// ---------------------------------------------------------------- client (this process)

interface ServerInfo {
  readonly child: ChildProcess;
  readonly port: number;
  readonly token: string;
  readonly schema: string;
  /** The server's processes: the cluster primary first, when there is one. */
  readonly pids: number[];
  readonly receiptIds: string[];
}

function startServer(store: string, receipts: number): Promise<ServerInfo> {
  const profileFile = args['profile-file'] ? ['--profile-file', `${args['profile-file']}.${store}.cpuprofile`] : [];
  const serverArgs = ['--serve', '--store', store, '--receipts', String(receipts), '--processes', args.processes!];
  serverArgs.push('--verify-threads', args['verify-threads']!, '--log-level', args['log-level']!);
  serverArgs.push(...profileFile);
  const child = fork(new URL(import.meta.url).pathname, serverArgs, {
    stdio: ['inherit', args['log-level'] === 'silent' ? 'inherit' : 'ignore', 'inherit', 'ipc'],
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: Omit<ServerInfo, 'child'>) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function benchStore(store: string): Promise<void> {
  const connections = Number(args.concurrency);
  const anchors = Number(args.anchors);
  const receipts = Number(args.receipts);
  const bodies = signatureBodies(anchors);
  const t0 = performance.now();
  const server = await startServer(store, receipts);
  const setup = ((performance.now() - t0) / 1000).toFixed(1);
  // Bearer: the token is looked up on every request; Basic: the auth plugin caches a checked login for a minute.
  const authorization =
    args.auth === 'basic'
      ? `Basic ${Buffer.from('bench@example.com:bench password 123').toString('base64')}`
      : `Bearer ${server.token}`;
  const headers = { authorization, 'content-type': 'application/json' };
  const posts = bodies.map((body) => rawRequest('POST', '/v1/anchor', headers, body));
  console.log(
    `\n[${store}] ${connections} connections, keep-alive, ${args.auth} auth, ${args.processes} API process(es), ${args['verify-threads']} verification thread(s) each (setup ${setup} s); ${loadAverage()}`,
  );
  const refs = await measureReferences({ connections, total: anchors, request: (i) => posts[i]! });
  await runLoad({ port: server.port, connections, total: 500, request: (i) => posts[i % posts.length]! });
  if (args.profile) await ask(server.child, 'profile-start');
  const cpu = await cpuMeter(store, server);
  const create = await runLoad({ port: server.port, connections, total: anchors, request: (i) => posts[i]! });
  const used = await cpu.read();
  if (args.profile)
    console.log(['  server CPU profile (self time):', ...(await ask(server.child, 'profile-stop')).profile].join('\n'));
  console.log(`  POST /v1/anchor (signature anchors, verified, durable): ${describeLoad(create, 'anchors')}`);
  console.log(`  ratios: ${ratios(create, refs)}; ${loadAverage()}`);
  const perCpu = anchors / used.server;
  const msPer1000 = (seconds: number) => `${((1000 * seconds) / anchors).toFixed(3)} s`;
  console.log(
    `  server CPU (${server.pids.length} process${server.pids.length > 1 ? 'es' : ''}): ${used.server.toFixed(1)} s = ${Math.round(perCpu)} anchors per CPU second (${((100 * perCpu) / refs.secpPerCpuSecond).toFixed(0)} % of recoveries per CPU second)`,
  );
  console.log(
    `  CPU per 1,000 anchors: server ${msPer1000(used.server)}, PostgreSQL backends ${store === 'postgres' ? msPer1000(used.postgres) : '(in the server)'}, load generator ${msPer1000(used.client)}`,
  );
  if (receipts > 0) await benchReceipts(server, connections, receipts);
  const stats = await ask(server.child, 'stats');
  server.child.send('stop');
  await new Promise((resolve) => server.child.once('exit', resolve));
  console.log(`  server peak RSS: ${stats.maxRssMb.join(', ')} MB`);
}

/**
 * CPU seconds used from now on by the server's processes, by this run's PostgreSQL backends (named by
 * their application_name; the database server is shared) and by this process (the load generator).
 */
async function cpuMeter(store: string, server: ServerInfo) {
  const pg = (await import('pg')).default;
  const db = store === 'postgres' ? new pg.Client({ connectionString: POSTGRES_URL }) : null;
  await db?.connect();
  const backends = async () => (db ? await backendPids(db, server.schema) : []);
  const perPid = async () => new Map((await backends()).map((pid) => [pid, cpuSeconds([pid])]));
  const before = await perPid();
  const server0 = cpuSeconds(server.pids);
  const client0 = process.cpuUsage();
  return {
    async read() {
      const client = process.cpuUsage(client0);
      const serverCpu = cpuSeconds(server.pids) - server0;
      const after = await perPid();
      await db?.end();
      const postgres = [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0);
      return { server: serverCpu, postgres, client: (client.user + client.system) / 1e6 };
    },
  };
}

/** Sends a command to the server process and waits for its answer. */
function ask(child: ChildProcess, command: string): Promise<{ maxRssMb: number[]; profile: string[] }> {
  child.send(command);
  return new Promise((resolve) => child.once('message', resolve));
}

/** Anchors/s as a share of one core's recoveries and of the bare server; p99 as a multiple of the bare server's. */
function ratios(r: LoadResult, refs: { secpPerSecond: number; bare: LoadResult }): string {
  const pctOf = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
  const p99 = percentile(r.latencies, 0.99) / percentile(refs.bare.latencies, 0.99);
  return `${pctOf(rateOf(r), refs.secpPerSecond)} of one core's recoveries, ${pctOf(rateOf(r), rateOf(refs.bare))} of the bare server's requests/s, p99 ${p99.toFixed(1)}× the bare server's`;
}

async function benchReceipts(server: { port: number; receiptIds: string[] }, connections: number, receipts: number) {
  const ids = server.receiptIds;
  const gets = ids.map((id) => rawRequest('GET', `/v1/receipt/${id}`, {}));
  const total = Number(args.requests);
  const get = await runLoad({ port: server.port, connections, total, request: (i) => gets[i % gets.length]! });
  console.log(`  GET /v1/receipt/{id} (batch of ${receipts}): ${describeLoad(get, 'receipts')}`);
}

if (args.serve) {
  await serve(args.store!, Number(args.receipts));
} else {
  for (const store of args.store === 'both' ? ['embedded', 'postgres'] : [args.store!]) await benchStore(store);
}
