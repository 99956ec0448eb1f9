/**
 * Receipts at random with the API reading from a streaming replica, and ingest with a replica attached, on a
 * primary and a replica of their own built on this machine (test/support/replica-cluster.ts: PostgreSQL 15,
 * `pg_basebackup -R`). The store is seeded with `--anchors` anchors in settled batches (bench/lib/random-receipts.ts).
 *   - receipts: GET /v1/receipt/{id} of uniformly random anchors, 64 keep-alive connections, an API process
 *     fresh for each run: once on the primary alone, once with DATABASE_REPLICA_URLS; the CPU per receipt of
 *     the API process, of the primary's processes and of the replica's (every process pg_stat_activity lists);
 *   - ingest: anchor rows inserted on the primary `--rows-per-statement` a statement (the group commit's shape),
 *     the replica streaming: the CPU per row of the primary's backend, of its WAL sender and of the replica's
 *     processes (its startup process replays), and the WAL per row.
 * A third receipts run has the API on the primary without named prepared statements
 * (DATABASE_PREPARED_STATEMENTS=false): what a pooler in transaction mode that does not keep them costs.
 * References in the same run: libsecp256k1 recoveries on one core and the bare node:http server; the load
 * average. Never fails on a timing.
 * Run: node --import tsx bench/replicas.bench.ts [--anchors 100000] [--requests 20000] [--ingest 100000]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { percentile, rawRequest, runLoad, type LoadResult } from './lib/http-load.js';
import { benchAnchorId, seedRandomStore, serveRandomStore, type SeedPlan } from './lib/random-receipts.js';
import { bareServerLoad, loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import { cpuSeconds } from './lib/service-process.js';
import { startReplicaCluster, type ReplicaCluster } from '../test/support/replica-cluster.js';

const { values: args } = parseArgs({
  options: {
    anchors: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    ingest: { type: 'string', default: '100000' },
    'rows-per-statement': { type: 'string', default: '1000' },
    serve: { type: 'string' },
    plan: { type: 'string' },
    env: { type: 'string' },
  },
});

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);

function child(extra: string[]): ChildProcess {
  return fork(new URL(import.meta.url).pathname, extra, { execArgv: ['--import', 'tsx'] });
}

function nextMessage<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited (${code})`));
    c.once('exit', onExit);
    c.once('message', (m) => {
      c.off('exit', onExit);
      resolve(m as T);
    });
  });
}

/** The pids of a server's processes that pg_stat_activity lists (backends, WAL sender, startup, walreceiver…). */
async function serverPids(url: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

const rate = (r: LoadResult) => r.requests / r.seconds;
const line = (r: LoadResult) =>
  `${Math.round(rate(r))}/s p50 ${percentile(r.latencies, 0.5).toFixed(1)} ms p99 ${percentile(r.latencies, 0.99).toFixed(1)} ms`;
const us = (seconds: number, n: number) => ((seconds * 1e6) / n).toFixed(1);

function randomLoad(port: number, n: number, total: number): Promise<LoadResult> {
  return runLoad({
    port,
    connections: Number(args.concurrency),
    total,
    request: () => rawRequest('GET', `/v1/receipt/${benchAnchorId(1 + Math.floor(Math.random() * n))}`, {}),
  });
}

/** One fresh API process on the seeded store; its CPU, the primary's and the replica's, per receipt. */
async function receiptsRun(label: string, cluster: ReplicaCluster, plan: SeedPlan, env: Record<string, string>) {
  const api = child(['--serve', 'api', '--plan', JSON.stringify(plan), '--env', JSON.stringify(env)]);
  const { port } = await nextMessage<{ port: number }>(api);
  const total = Number(args.requests);
  await randomLoad(port, plan.anchors, 2_000);
  const primary = await serverPids(cluster.primaryUrl);
  const replica = await serverPids(cluster.replicaUrl);
  const before = [cpuSeconds([api.pid!]), cpuSeconds(primary), cpuSeconds(replica)];
  const result = await randomLoad(port, plan.anchors, total);
  const after = [cpuSeconds([api.pid!]), cpuSeconds(primary), cpuSeconds(replica)];
  const [a, p, r] = after.map((v, i) => v - before[i]!);
  const statuses = JSON.stringify(Object.fromEntries(result.statuses));
  console.log(
    `  ${label.padEnd(34)} ${line(result)}; CPU per receipt: API ${us(a!, total)} µs, primary ${us(p!, total)} µs, replica ${us(r!, total)} µs; statuses ${statuses}`,
  );
  const exited = new Promise((resolve) => api.once('exit', resolve));
  api.send('stop');
  await exited;
  return result;
}

/** Anchor rows inserted on the primary with the replica streaming: CPU and WAL per row. */
async function ingestRun(cluster: ReplicaCluster): Promise<void> {
  const rows = Number(args.ingest);
  const per = Number(args['rows-per-statement']);
  const c = new pg.Client({ connectionString: cluster.primaryUrl });
  await c.connect();
  const [{ id: account }] = (await c.query<{ id: string }>('SELECT id FROM account LIMIT 1')).rows as [{ id: string }];
  const senders = (
    await c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'walsender'`)
  ).rows.map((r) => r.pid);
  const [{ pid: backend }] = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [
    { pid: number },
  ];
  const replica = await serverPids(cluster.replicaUrl);
  const [{ lsn: lsn0 }] = (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows as [
    { lsn: string },
  ];
  const before = [cpuSeconds([backend]), cpuSeconds(senders), cpuSeconds(replica)];
  const t0 = performance.now();
  for (let done = 0; done < rows; done += per) {
    const leaves = Array.from({ length: Math.min(per, rows - done) }, () => randomBytes(32));
    await c.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
       SELECT gen_random_uuid(), $1, 'ingest', 'data', encode(l, 'hex'), l, 0, 0 FROM unnest($2::bytea[]) AS x(l)`,
      [account, leaves],
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const [{ bytes }] = (
    await c.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes', [lsn0])
  ).rows as [{ bytes: string }];
  await cluster.caughtUp();
  const after = [cpuSeconds([backend]), cpuSeconds(senders), cpuSeconds(replica)];
  const [b, s, r] = after.map((v, i) => v - before[i]!);
  console.log(
    `  ingest, ${rows} rows ${per} a statement: ${Math.round(rows / seconds)} rows/s; CPU per row: primary backend ${us(b!, rows)} µs, WAL sender ${us(s!, rows)} µs, replica ${us(r!, rows)} µs (replay); WAL ${Math.round(Number(bytes) / rows)} bytes a row`,
  );
  await c.end();
}

async function main(): Promise<void> {
  console.log(`replicas: ${loadAverage()}`);
  const secp = secpRecoveriesPerSecond();
  console.log(
    `  libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second, R = ${(1e6 / secp.perCpuSecond).toFixed(1)} µs)`,
  );
  const cluster = await startReplicaCluster();
  try {
    const plan: SeedPlan = {
      store: 'postgres',
      anchors: Number(args.anchors),
      batchSize: 50_000,
      unsettled: 0,
      databaseUrl: `${cluster.primaryUrl}?application_name=bench`,
    };
    const seed = child(['--serve', 'seed', '--plan', JSON.stringify(plan)]);
    const { seconds } = await nextMessage<{ seconds: number }>(seed);
    await cluster.caughtUp();
    console.log(
      `  ${plan.anchors} anchors seeded in settled batches of 50,000 (${seconds.toFixed(0)} s); ${loadAverage()}`,
    );
    const bare = await bareServerLoad({
      connections: Number(args.concurrency),
      total: Number(args.requests),
      request: () => rawRequest('GET', '/', {}),
    });
    console.log(
      `  ${'bare node:http server'.padEnd(34)} ${line(bare)}; its CPU ${us(bare.serverCpuSeconds, bare.requests)} µs per request`,
    );
    await receiptsRun('API on the primary alone', cluster, plan, {});
    await receiptsRun('API reading from the replica', cluster, { ...plan, replicaUrls: [cluster.replicaUrl] }, {});
    await receiptsRun('primary alone, no prepared statements', cluster, { ...plan, preparedStatements: false }, {});
    await ingestRun(cluster);
    console.log(`  done; ${loadAverage()}`);
  } finally {
    await cluster.close();
  }
}

if (args.serve === 'seed') {
  const seconds = await seedRandomStore(JSON.parse(args.plan!) as SeedPlan);
  process.send!({ seconds });
  process.exit(0);
} else if (args.serve === 'api') {
  await serveRandomStore(ROOT, JSON.parse(args.plan!) as SeedPlan, JSON.parse(args.env!) as Record<string, string>);
} else await main();
