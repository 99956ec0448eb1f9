/**
 * What another API process buys: the built service started as `proofseal start --role api --processes N`
 * (N = 1, 2, 4) on one PostgreSQL, signature anchors posted through HTTP by the light load generator,
 * with the references of the same run (libsecp256k1 on one core, a bare node:http server) and the CPU
 * seconds that the API processes, PostgreSQL and the load generator each spent per 1,000 anchors, which
 * is what tells which resource a larger machine runs out of first. Also the peak RSS of each API process.
 *   node --import tsx bench/scaling.bench.ts [--processes 1,2,4] [--anchors 20000] [--concurrency 64]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signatureBodies } from './lib/anchor-bodies.js';
import { describeLoad, rateOf, rawRequest, runLoad, type LoadResult } from './lib/http-load.js';
import { loadAverage, measureReferences } from './lib/references.js';
import * as service from './lib/service-process.js';

const { values: args } = parseArgs({
  options: {
    processes: { type: 'string', default: '1,2,4' },
    anchors: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const connections = Number(args.concurrency);
const anchors = Number(args.anchors);
/** Names the service's database connections, so that only their backends' CPU is counted (others share the server). */
const APPLICATION_NAME = 'proofseal-scaling-bench';

/** Starts N API processes and waits until all of them serve (the primary forks the rest once the first serves). */
async function startApi(n: number, env: Record<string, string>, port: number) {
  const started = await service.startUntilReady(
    [process.execPath, service.MAIN, 'start', '--role', 'api', '--processes', String(n)],
    env,
    port,
  );
  const pid = started.child.pid!;
  const expected = n === 1 ? 1 : n + 1;
  while (service.processTree(pid).length < expected) await new Promise((r) => setTimeout(r, 100));
  // The others start like the first did, in parallel: give them that long again before measuring.
  await new Promise((r) => setTimeout(r, started.seconds * 1000 + 500));
  return started.child;
}

async function measure(n: number, env: Record<string, string>, posts: Buffer[], db: pg.Client) {
  const port = await service.freePort();
  const child = await startApi(n, { ...env, PORT: String(port) }, port);
  const request = (i: number) => posts[i % posts.length]!;
  await runLoad({ port, connections, total: 2000, request });
  const api = service.processTree(child.pid!);
  const backends = await service.backendPids(db, APPLICATION_NAME);
  const cpu = () => ({
    api: service.cpuSeconds(api),
    postgres: service.cpuSeconds(backends),
    client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });
  const peak = new Map<number, number>();
  const sampler = setInterval(() => {
    for (const p of service.treeRss(child.pid!)) peak.set(p.pid, Math.max(peak.get(p.pid) ?? 0, p.rssMb));
  }, 250);
  const before = cpu();
  const result = await runLoad({ port, connections, total: anchors, request });
  const after = cpu();
  clearInterval(sampler);
  await service.stop(child);
  const per1000 = (k: 'api' | 'postgres' | 'client') => (((after[k] - before[k]) * 1000) / result.requests).toFixed(3);
  return { result, cpu: { api: per1000('api'), postgres: per1000('postgres'), client: per1000('client') }, peak };
}

function report(
  n: number,
  m: Awaited<ReturnType<typeof measure>>,
  refs: { secpPerSecond: number; secpPerCpuSecond: number; bare: LoadResult },
) {
  const rate = rateOf(m.result);
  console.log(`  ${n} API process${n > 1 ? 'es' : ''}: ${describeLoad(m.result, 'anchors')}`);
  console.log(
    `    ${Math.round(1000 / Number(m.cpu.api))} anchors per API CPU second (${(100000 / Number(m.cpu.api) / refs.secpPerCpuSecond).toFixed(0)} % of recoveries per CPU second); ${((100 * rate) / refs.secpPerSecond).toFixed(0)} % of one core's recoveries, ${((100 * rate) / rateOf(refs.bare)).toFixed(0)} % of the bare server; CPU s per 1,000 anchors: API ${m.cpu.api}, PostgreSQL ${m.cpu.postgres}, load generator ${m.cpu.client}; ${loadAverage()}`,
  );
  const rss = [...m.peak.values()].map((mb) => Math.round(mb));
  console.log(`    peak RSS per process (MB, the primary first when N > 1): ${rss.join(', ')}`);
}

async function main(): Promise<void> {
  service.buildIfChanged();
  const { env, token, remove } = service.freshService({
    name: 'scaling',
    postgresUrl: POSTGRES_URL,
    applicationName: APPLICATION_NAME,
    env: { REGTEST_BLOCK_INTERVAL_SECONDS: '0' },
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const posts = signatureBodies(anchors).map((body) => rawRequest('POST', '/v1/anchor', headers, body));
  console.log(`\n[scaling, PostgreSQL] ${connections} connections, keep-alive, bearer auth; ${loadAverage()}`);
  const refs = await measureReferences({ connections, total: anchors, request: (i) => posts[i]! });
  const db = new pg.Client({ connectionString: POSTGRES_URL });
  await db.connect();
  try {
    for (const n of args.processes!.split(',').map(Number)) report(n, await measure(n, env, posts, db), refs);
  } finally {
    await remove(db);
    await db.end();
  }
}

await main();
