/**
 * The default run as a new user starts it: `npm start` (the build check, then API, identity server, worker,
 * embedded PostgreSQL and embedded bcoin node in one service process) on a fresh DATA_DIR. Prints the time
 * to /ready (fresh store, then again on the same store), the RSS of every process `npm start` runs (peak
 * while the store is set up, idle, peak under the ingest load, idle again after it), and anchors/s.
 *   node --import tsx bench/footprint.bench.ts [--anchors 20000] [--concurrency 64] [--idle-seconds 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signatureBodies } from './lib/anchor-bodies.js';
import { describeLoad, rawRequest, runLoad } from './lib/http-load.js';
import { loadAverage } from './lib/references.js';
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

const label = (command: string) =>
  command.includes('dist/main.js') ? 'service (node dist/main.js start)' : command.split(' ')[0]!.split('/').pop()!;

function describeRss(what: string, total: number, byProcess: Map<string, number>): string {
  const parts = [...byProcess].map(([name, mb]) => `${name} ${Math.round(mb)}`).join(', ');
  return `  ${what}: ${Math.round(total)} MB (${parts})`;
}

function rssNow(pid: number) {
  const tree = service.treeRss(pid);
  const byProcess = new Map(tree.map((p) => [label(p.command), p.rssMb]));
  return { total: tree.reduce((sum, p) => sum + p.rssMb, 0), byProcess };
}

async function startTimed(env: Record<string, string>, port: number, what: string) {
  let pid: number | undefined;
  const stopSampling = rssSampler(() => pid);
  const { child, seconds } = await service.startUntilReady(['npm', 'start', '--silent'], env, port, (c) => {
    pid = c.pid;
  });
  const { peakTotal, peak } = stopSampling();
  console.log(`  npm start to /ready, ${what}: ${seconds.toFixed(2)} s; ${loadAverage()}`);
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
    const idle = rssNow(child.pid!);
    console.log(describeRss(`idle RSS after ${idleMs / 1000} s`, idle.total, idle.byProcess));
    await ingest(child.pid!, env, port);
    await sleep(idleMs);
    const after = rssNow(child.pid!);
    console.log(describeRss(`idle RSS ${idleMs / 1000} s after the load`, after.total, after.byProcess));
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
  const stopSampling = rssSampler(() => pid);
  const result = await runLoad({ port, connections, total: posts.length, request: (i) => posts[i]! });
  const { peakTotal, peak } = stopSampling();
  console.log(`  POST /v1/anchor, whole default run, ${connections} connections: ${describeLoad(result, 'anchors')}`);
  console.log(describeRss('peak RSS under the ingest load', peakTotal, peak));
}

await main();
