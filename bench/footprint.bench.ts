/**
 * The default run as a new user starts it: `npm start` (the build check, then API, identity server, worker,
 * embedded PostgreSQL and embedded bcoin node in one service process) on a fresh DATA_DIR. Prints the time
 * to /ready (fresh store, then again on the same store), the RSS of every process `npm start` runs (peak
 * while the store is set up, idle, peak under the ingest load, idle again after it) with the tree's PSS
 * beside it, anchors/s and the service's CPU seconds per 1,000 anchors, and the references of the same run
 * (libsecp256k1 on one core, a bare node:http server under the same load). The API process on PostgreSQL
 * under load is measured by bench/scaling.bench.ts (`--processes 1`).
 *   node --import tsx bench/footprint.bench.ts [--anchors 20000] [--concurrency 64] [--idle-seconds 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signatureBodies } from './lib/anchor-bodies.js';
import { describeLoad, rateOf, rawRequest, runLoad } from './lib/http-load.js';
import { loadAverage, measureReferences } from './lib/references.js';
import * as service from './lib/service-process.js';

const { values: args } = parseArgs({
  options: {
    anchors: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    'idle-seconds': { type: 'string', default: '10' },
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples the tree's RSS every 100 ms until stopped; returns the peak of the sum and of each command. */
function rssSampler(pid: () => number | undefined) {
  const peak = new Map<string, number>();
  let peakTotal = 0;
  const timer = setInterval(() => {
    const root = pid();
    if (root === undefined) return;
    const tree = service.treeRss(root);
    peakTotal = Math.max(
      peakTotal,
      tree.reduce((sum, p) => sum + p.rssMb, 0),
    );
    for (const p of tree) peak.set(label(p.command), Math.max(peak.get(label(p.command)) ?? 0, p.rssMb));
  }, 100);
  return () => {
    clearInterval(timer);
    return { peakTotal, peak };
  };
}

/** The service process is `node … bin/proofseal.js start`; npm runs it through `sh -c node … bin/proofseal.js start`. */
const isService = (command: string) => command.includes('bin/proofseal.js') && !/^(\S*\/)?sh /.test(command);

const label = (command: string) =>
  isService(command) ? 'service (node bin/proofseal.js start)' : command.split(' ')[0]!.split('/').pop()!;

function describeRss(what: string, total: number, byProcess: Map<string, number>): string {
  const parts = [...byProcess].map(([name, mb]) => `${name} ${Math.round(mb)}`).join(', ');
  return `  ${what}: ${Math.round(total)} MB (${parts})`;
}

function rssNow(pid: number) {
  const tree = service.treeRss(pid);
  const byProcess = new Map(tree.map((p) => [label(p.command), p.rssMb]));
  const pss = tree.reduce((sum, p) => sum + service.pssMb(p.pid), 0);
  return { total: tree.reduce((sum, p) => sum + p.rssMb, 0), byProcess, pss };
}

function describeIdle(what: string, pid: number): void {
  const now = rssNow(pid);
  console.log(`${describeRss(what, now.total, now.byProcess)}; PSS of the tree ${Math.round(now.pss)} MB`);
}

/** The service process of the tree (`node … bin/proofseal.js start`), whose CPU time the ingest figure divides. */
const servicePid = (root: number) => service.treeRss(root).find((p) => isService(p.command))?.pid;

async function startTimed(env: Record<string, string>, port: number, what: string) {
  let pid: number | undefined;
  const stopSampling = rssSampler(() => pid);
  const { child, seconds } = await service.startUntilReady(['npm', 'start', '--silent'], env, port, (c) => {
    pid = c.pid;
  });
  const { peakTotal, peak } = stopSampling();
  // npm's own CPU, the build check's and the store set-up child's (both ended, waited for) and the service's.
  const cpu = service.cpuSeconds(service.processTree(child.pid!), true);
  console.log(`  npm start to /ready, ${what}: ${seconds.toFixed(2)} s, ${cpu.toFixed(2)} CPU s; ${loadAverage()}`);
  console.log(describeRss(`peak RSS while starting (${what})`, peakTotal, peak));
  return child;
}

async function main(): Promise<void> {
  service.buildIfChanged();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-footprint-'));
  const port = await service.freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    IDENTITY_PORT: String(await service.freePort()),
    LOG_LEVEL: 'info',
  };
  const idleMs = Number(args['idle-seconds']) * 1000;
  console.log(`\n[footprint, default run: npm start on a fresh DATA_DIR]; ${loadAverage()}`);
  try {
    await service.stop(await startTimed(env, port, 'fresh store'));
    const child = await startTimed(env, port, 'same store again');
    await sleep(idleMs);
    describeIdle(`idle RSS after ${idleMs / 1000} s`, child.pid!);
    await ingest(child.pid!, env, port);
    await sleep(idleMs);
    describeIdle(`idle RSS ${idleMs / 1000} s after the load`, child.pid!);
    await service.stop(child);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Signature anchors through HTTP against the running default service, its RSS sampled meanwhile. */
async function ingest(pid: number, env: Record<string, string>, port: number): Promise<void> {
  const token = service.operatorToken(env);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const posts = signatureBodies(Number(args.anchors)).map((b) => rawRequest('POST', '/v1/anchor', headers, b));
  const connections = Number(args.concurrency);
  const refs = await measureReferences({ connections, total: posts.length, request: (i) => posts[i]! });
  const svc = servicePid(pid)!;
  const stopSampling = rssSampler(() => pid);
  const cpu0 = service.cpuSeconds([svc]);
  const result = await runLoad({ port, connections, total: posts.length, request: (i) => posts[i]! });
  const cpuPer1000 = ((service.cpuSeconds([svc]) - cpu0) * 1000) / result.requests;
  const { peakTotal, peak } = stopSampling();
  const rate = rateOf(result);
  console.log(`  POST /v1/anchor, whole default run, ${connections} connections: ${describeLoad(result, 'anchors')}`);
  console.log(
    `    ${((100 * rate) / refs.secpPerSecond).toFixed(0)} % of one core's recoveries, ${((100 * rate) / rateOf(refs.bare)).toFixed(0)} % of the bare server; service CPU s per 1,000 anchors ${cpuPer1000.toFixed(3)}; ${loadAverage()}`,
  );
  console.log(describeRss('peak RSS under the ingest load', peakTotal, peak));
}

await main();
