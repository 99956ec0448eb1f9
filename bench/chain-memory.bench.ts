/**
 * What the default run's embedded regtest node holds in memory as its chain grows (it mines a block
 * every REGTEST_BLOCK_INTERVAL_SECONDS, 5 by default: 720 blocks an hour): the node started as the service
 * starts it, in memory (as with PostgreSQL) and kept in a directory (the embedded store's default run,
 * DATA_DIR/regtest), each in a child process of its own, mining `--blocks` blocks in steps; after each
 * step a full GC, then RSS, V8 heap and external memory. Also the start of a node on an existing chain
 * directory. Beside them, as the reference of the same run: libsecp256k1 recoveries/s on one core.
 *   node --import tsx bench/chain-memory.bench.ts [--blocks 4000] [--step 1000]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: {
    blocks: { type: 'string', default: '4000' },
    step: { type: 'string', default: '1000' },
    child: { type: 'string' },
  },
});

interface Reading {
  height: number;
  rssMb: number;
  heapMb: number;
  externalMb: number;
  seconds: number;
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

function reading(height: number, t0: number): Reading {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return {
    height,
    rssMb: mb(m.rss),
    heapMb: mb(m.heapUsed),
    externalMb: mb(m.external),
    seconds: (performance.now() - t0) / 1000,
  };
}

/** The child: a node in memory (`mem`) or in the directory given, mined in steps; one reading per step. */
async function child(where: string): Promise<void> {
  const { EmbeddedRegtest } = await import('../src/adapters/chain/embedded-regtest.js');
  const t0 = performance.now();
  const node = await EmbeddedRegtest.start(where === 'mem' ? {} : { dir: where });
  const readings = [reading(await node.rpc.getBlockCount(), t0)];
  const total = Number(args.blocks);
  const step = Number(args.step);
  for (let mined = 0; mined < total; mined += step) {
    const t = performance.now();
    await node.mine(Math.min(step, total - mined));
    readings.push(reading(await node.rpc.getBlockCount(), t));
  }
  await node.stop();
  process.send!(readings);
}

function run(where: string, blocks: number): Promise<Reading[]> {
  const c = fork(
    new URL(import.meta.url).pathname,
    ['--child', where, '--blocks', String(blocks), '--step', args.step!],
    {
      execArgv: ['--expose-gc', '--import', 'tsx'],
    },
  );
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as Reading[]));
    c.once('exit', (code) => code !== 0 && reject(new Error(`child exited with ${code}`)));
  });
}

function print(label: string, readings: Reading[]): void {
  const [first, ...steps] = readings;
  console.log(
    `  ${label}: started in ${first!.seconds.toFixed(2)} s at height ${first!.height}, RSS ${first!.rssMb} MB`,
  );
  for (const r of steps)
    console.log(
      `    height ${r.height}: RSS ${r.rssMb} MB, heap ${r.heapMb} MB, external ${r.externalMb} MB (step mined in ${r.seconds.toFixed(1)} s)`,
    );
  if (steps.length < 2) return;
  const last = readings.at(-1)!;
  const per1000 = ((last.rssMb - readings[1]!.rssMb) / (last.height - readings[1]!.height)) * 1000;
  console.log(
    `    RSS per further 1,000 blocks: ${per1000.toFixed(1)} MB (≈ ${((per1000 * 720) / 1000).toFixed(1)} MB an hour at a block every 5 s)`,
  );
}

async function main(): Promise<void> {
  const blocks = Number(args.blocks);
  console.log(`[embedded regtest node, ${blocks} blocks] ${loadAverage()}`);
  const secp = secpRecoveriesPerSecond();
  console.log(
    `  reference: libsecp256k1 ${Math.round(secp.wall)} recoveries/s on one core (${Math.round(secp.perCpuSecond)} per CPU second)`,
  );
  print('in memory', await run('mem', blocks));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-chain-bench-'));
  try {
    print('in a directory (LevelDB)', await run(dir, blocks));
    print('in the same directory again (the next start)', await run(dir, 0));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`  ${loadAverage()}`);
}

if (args.child) await child(args.child);
else await main();
