/**
 * Ingest per CPU second of everything the service runs (issue 25, goal 2): the built service started as
 * an operator starts it, `proofseal start` with every role in one process (API, worker, identity server,
 * the embedded Bitcoin regtest node), on PostgreSQL or on the embedded store; signature anchors posted
 * through HTTP by the light load generator (64 keep-alive connections); then the bench waits until the
 * worker has put every one of them into a batch and broadcast it (the last anchor leaves WAIT), and reads
 * the CPU the service's process tree and its PostgreSQL backends (by application_name) spent from the first
 * request until then. That CPU per anchor is printed in microseconds and as a multiple of one libsecp256k1
 * public-key recovery measured in the same run (one core, `bench/lib/references.ts`), beside the bare
 * node:http server's CPU per request under the same load. The service's idle CPU (timers, the regtest
 * miner, pollers) is measured for a few seconds before the load and printed per second, so what the
 * anchors cost can be told apart from what the service costs when nobody asks anything.
 *   node --import tsx bench/ingest.bench.ts [--store postgres|embedded|both] [--anchors 20000] [--concurrency 64]
 *     [--idle-seconds 5] [--rounds 1] [--log-level warn]
 * `--tlog on|off|both` (default both): the transparency log (TRANSPARENCY_LOG) on, off, or each in turn on the same
 * store (odd rounds with the log first), the log's cost printed as the ratio of the two (issue 36: within 10 % of the
 * ingest without it), and with several rounds the median of the rounds' ratios. With the
 * log on, the window ends once the last anchor is also in the log (`GET /v1/receipt/{id}/log` answers 200), so the
 * sequencer's work for every anchor is inside it; each figure is also printed net of the idle service's CPU over its
 * window (the idle rate measured before it, times the window), since the log's window is the longer one.
 * `--log-level` is the service's LOG_LEVEL (`warn` by default here, as the figures before it; the service's own
 * default is `info`, one access line per request, written to the void as a service's output would be).
 * `BENCH_PROF_DIR=DIR` starts the service with `--cpu-prof` into DIR (a V8 profile of each thread, written when
 * it stops; the whole life of the process, start and warm-up included).
 * Figures are printed, never asserted.
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signatureBodies } from './lib/anchor-bodies.js';
import { describeLoad, rateOf, rawRequest, runLoad, type LoadResult } from './lib/http-load.js';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import * as service from './lib/service-process.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    'idle-seconds': { type: 'string', default: '5' },
    rounds: { type: 'string', default: '1' },
    'log-level': { type: 'string', default: 'warn' },
    tlog: { type: 'string', default: 'both' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const APPLICATION_NAME = 'proofseal-ingest-bench';
const connections = Number(args.concurrency);
const anchors = Number(args.anchors);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  readonly child: Awaited<ReturnType<typeof service.startUntilReady>>['child'];
  readonly port: number;
  readonly token: string;
  readonly db: pg.Client | null;
  cleanup(): Promise<void>;
}

async function startService(store: string, tlog: boolean): Promise<Started> {
  const { env, token, remove } = service.freshService({
    name: 'ingest',
    postgresUrl: store === 'postgres' ? POSTGRES_URL : undefined,
    applicationName: APPLICATION_NAME,
    env: { BATCH_INTERVAL_SECONDS: '2', LOG_LEVEL: args['log-level']!, TRANSPARENCY_LOG: String(tlog) },
  });
  const port = await service.freePort();
  const { child } = await service.startUntilReady(
    [
      process.execPath,
      ...(process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : []),
      service.MAIN,
      'start',
    ],
    // The identity server on a free port too: another service on this machine may hold the default one.
    { ...env, PORT: String(port), IDENTITY_PORT: String(await service.freePort()) },
    port,
  );
  const db = store === 'postgres' ? new pg.Client({ connectionString: POSTGRES_URL }) : null;
  await db?.connect();
  return {
    child,
    port,
    token,
    db,
    async cleanup() {
      await service.stop(child);
      await remove(db);
      await db?.end();
    },
  };
}

/** CPU seconds so far of the service's process tree and of its PostgreSQL backends. */
async function cpuNow(s: Started): Promise<{ service: number; postgres: number }> {
  const backends = s.db ? await service.backendPids(s.db, APPLICATION_NAME) : [];
  return { service: service.cpuSeconds(service.processTree(s.child.pid!)), postgres: service.cpuSeconds(backends) };
}

/**
 * Posts `bodies`, then one anchor more whose id it reads, and waits until the worker has batched that one
 * (its status leaves WAIT): batches take anchors in the order they were stored, so every earlier one is in it
 * or in an earlier batch.
 */
async function ingest(
  s: Started,
  bodies: Buffer[],
  lastBody: string,
  tlog: boolean,
): Promise<{ load: LoadResult; settleSeconds: number }> {
  const load = await runLoad({ port: s.port, connections, total: bodies.length, request: (i) => bodies[i]! });
  const auth = { authorization: `Bearer ${s.token}` };
  const posted = await fetch(`http://127.0.0.1:${s.port}/v1/anchor`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: lastBody,
  });
  const { id } = (await posted.json()) as { id: string };
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${s.port}/v1/anchor/${id}`, { headers: auth });
    const status = ((await res.json()) as { status?: string }).status;
    if (status !== undefined && status !== 'WAIT') break;
    if (performance.now() - t0 > 120_000) throw new Error(`the last anchor is still ${status} after 120 s`);
    await sleep(200);
  }
  while (tlog && (await fetch(`http://127.0.0.1:${s.port}/v1/receipt/${id}/log`)).status !== 200) {
    if (performance.now() - t0 > 120_000) throw new Error('the last anchor is not in the log after 120 s');
    await sleep(200);
  }
  return { load, settleSeconds: (performance.now() - t0) / 1000 };
}

async function measure(
  store: string,
  tlog: boolean,
  secpCpuSeconds: number,
  bareCpuPerRequest: number,
): Promise<{ total: number; net: number }> {
  const s = await startService(store, tlog);
  try {
    const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
    const bodies = signatureBodies(anchors + 2002);
    const posts = bodies.slice(0, anchors + 2000).map((b) => rawRequest('POST', '/v1/anchor', headers, b));
    // Warm-up: V8 optimises the hot paths, the pools fill, a first batch closes.
    await ingest(s, posts.slice(anchors), bodies[anchors + 2000]!, tlog);
    const idleSeconds = Number(args['idle-seconds']);
    const i0 = await cpuNow(s);
    await sleep(idleSeconds * 1000);
    const i1 = await cpuNow(s);
    const idlePerSecond = (i1.service - i0.service + i1.postgres - i0.postgres) / idleSeconds;
    const before = await cpuNow(s);
    const t0 = performance.now();
    const { load, settleSeconds } = await ingest(s, posts.slice(0, anchors), bodies[anchors + 2001]!, tlog);
    const after = await cpuNow(s);
    const windowSeconds = (performance.now() - t0) / 1000;
    const us = (k: 'service' | 'postgres') => ((after[k] - before[k]) * 1e6) / load.requests;
    const total = us('service') + us('postgres');
    const recovery = secpCpuSeconds * 1e6;
    console.log(
      `  [${store}, transparency log ${tlog ? 'on' : 'off'}] ${describeLoad(load, 'anchors')}; the last one batched${tlog ? ' and logged' : ''} ${settleSeconds.toFixed(1)} s after the load`,
    );
    console.log(
      `    CPU per anchor, from the first request until the last anchor left WAIT: service ${us('service').toFixed(0)} µs` +
        ` + PostgreSQL ${us('postgres').toFixed(0)} µs = ${total.toFixed(0)} µs = ${(total / recovery).toFixed(2)}× one recovery` +
        ` (${recovery.toFixed(1)} µs); ${((100 * rateOf(load) * recovery) / 1e6).toFixed(0)} % of one core's recoveries;` +
        ` the bare server ${bareCpuPerRequest.toFixed(1)} µs a request = ${(bareCpuPerRequest / recovery).toFixed(2)}×;` +
        ` idle service ${(idlePerSecond * 1000).toFixed(0)} ms CPU a second; ${loadAverage()}`,
    );
    // What the service spends anyway over the window (timers, the regtest miner, pollers), at its idle rate: the
    // log's window is longer (it ends once the last anchor is logged), so the comparison is made net of it too.
    const net = total - (idlePerSecond * windowSeconds * 1e6) / load.requests;
    console.log(
      `    net of the idle service's CPU over the ${windowSeconds.toFixed(1)} s window: ${net.toFixed(0)} µs per anchor = ${(net / recovery).toFixed(2)}× one recovery`,
    );
    return { total, net };
  } finally {
    await s.cleanup();
  }
}

async function main(): Promise<void> {
  service.buildIfChanged();
  const stores = args.store === 'both' ? ['postgres', 'embedded'] : [args.store!];
  console.log(
    `\n[ingest, proofseal start with every role] ${anchors} signature anchors, ${connections} connections, LOG_LEVEL=${args['log-level']}; ${loadAverage()}`,
  );
  /** Each round's ratio of ingest per CPU second with the log to without it, by store. */
  const ratios = new Map<string, { gross: number; net: number }[]>();
  for (let round = 0; round < Number(args.rounds); round++) {
    const secp = secpRecoveriesPerSecond();
    console.log(
      `  libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second)`,
    );
    // The bare server's CPU per request under the same load: the floor of any HTTP service here.
    const bareBody = rawRequest('POST', '/', { 'content-type': 'application/json' }, signatureBodies(1)[0]!);
    const bare = await bareServerCpu((port) => runLoad({ port, connections, total: anchors, request: () => bareBody }));
    console.log(`  bare node:http server: ${describeLoad(bare.load, 'requests')}`);
    const bareUs = (bare.cpu * 1e6) / bare.load.requests;
    // With the log both ways, odd rounds run it first: whatever a run leaves behind (a warmer page cache, a
    // busier autovacuum) does not always fall on the same side.
    const modes = args.tlog === 'both' ? (round % 2 === 0 ? [false, true] : [true, false]) : [args.tlog === 'on'];
    for (const store of stores) {
      const cost = new Map<boolean, Awaited<ReturnType<typeof measure>>>();
      for (const tlog of modes) cost.set(tlog, await measure(store, tlog, 1 / secp.perCpuSecond, bareUs));
      const [off, on] = [cost.get(false), cost.get(true)];
      if (off === undefined || on === undefined) continue;
      ratios.set(store, [...(ratios.get(store) ?? []), { gross: off.total / on.total, net: off.net / on.net }]);
      console.log(
        `    [${store}] the transparency log's cost: ${(on.total - off.total).toFixed(0)} µs CPU per anchor, ingest per CPU second ×${(off.total / on.total).toFixed(3)} with it;` +
          ` net of the idle service's CPU: ${(on.net - off.net).toFixed(0)} µs, ×${(off.net / on.net).toFixed(3)}; ${loadAverage()}`,
      );
    }
  }
  for (const [store, r] of ratios) {
    if (r.length < 2) continue;
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const m = Math.floor(s.length / 2);
      return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
    };
    const list = (xs: number[]) => xs.map((x) => `×${x.toFixed(3)}`).join(', ');
    console.log(
      `  [${store}] ingest per CPU second with the log over ${r.length} rounds: ${list(r.map((x) => x.gross))}; median ×${median(r.map((x) => x.gross)).toFixed(3)}` +
        ` (net of idle: median ×${median(r.map((x) => x.net)).toFixed(3)}); ${loadAverage()}`,
    );
  }
}

/** The bare server (bench/lib/bare-server.ts) in a child process: a warm-up, then `use`, and the CPU it spent in `use`. */
async function bareServerCpu(use: (port: number) => Promise<LoadResult>): Promise<{ load: LoadResult; cpu: number }> {
  const child = fork(new URL('./lib/bare-server.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', resolve));
  try {
    await runLoad({ port, connections, total: 2000, request: () => Buffer.from('GET / HTTP/1.1\r\nhost: x\r\n\r\n') });
    const c0 = service.cpuSeconds([child.pid!]);
    const load = await use(port);
    return { load, cpu: service.cpuSeconds([child.pid!]) - c0 };
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

await main();
