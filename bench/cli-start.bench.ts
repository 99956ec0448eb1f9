/**
 * What one client command costs to start (issue 33: each `npx proofseal` call took 5–9 s on a busy 2-core box).
 * Against the default run (`proofseal start`, built, on a fresh DATA_DIR) with one signature request in it, the CPU
 * seconds (user + system, of the process and what it waited for) and wall seconds of: `proofseal --help`,
 * `proofseal request show <id>` (its text and `--json`), `proofseal outbox mail` (an operator command through the
 * running service's socket), and `npx proofseal --help` from this checkout (npm's own start added; not with `BENCH_PROOFSEAL_BIN`). Each is run
 * `--runs` times in turn; the median and the lowest are printed. Beside them, the references of the same run: a bare
 * `node -e 0` start, measured the same way, and libsecp256k1 recoveries on one core (bench/lib/references.ts),
 * before and after.
 * `BENCH_PROOFSEAL_BIN` (bench/lib/service-process.ts) names another build's bin/proofseal.js, for before/after.
 *   node --import tsx bench/cli-start.bench.ts [--runs 7]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import * as service from './lib/service-process.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(args.runs);
const root = path.resolve(import.meta.dirname, '..');

const secpLine = (when: string) => {
  const r = secpRecoveriesPerSecond(2);
  return `  reference (${when}): libsecp256k1 ${r.wall.toFixed(0)} recoveries/s on one core (${r.perCpuSecond.toFixed(0)} per CPU second)`;
};

/** CPU seconds of the children this process has waited for (user + system, /proc/self/stat; 10 ms ticks). */
function waitedChildrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Sample {
  readonly cpu: number;
  readonly wall: number;
}

/** Runs `command` to its end; its CPU and wall seconds. @throws Error when it fails */
function measure(command: string[], env: NodeJS.ProcessEnv, cwd: string): Sample {
  const cpu0 = waitedChildrenCpu();
  const t0 = performance.now();
  const r = spawnSync(command[0]!, command.slice(1), { env, cwd, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return { cpu: waitedChildrenCpu() - cpu0, wall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const min = (xs: number[]) => Math.min(...xs);

console.log(`cli-start: ${runs} runs of each command, ${loadAverage()}`);
console.log(`  proofseal: ${service.MAIN}`);
service.buildIfChanged();
console.log(secpLine('before'));

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-cli-start-'));
const [port, identityPort] = [await service.freePort(), await service.freePort()];
const settings: Record<string, string> = {
  DATA_DIR: dataDir,
  PORT: String(port),
  IDENTITY_PORT: String(identityPort),
  LOG_LEVEL: 'warn',
};
const env: NodeJS.ProcessEnv = { ...process.env, ...settings };
const { child } = await service.startUntilReady([process.execPath, service.MAIN, 'start'], settings, port);
try {
  const doc = path.join(dataDir, 'contract.txt');
  writeFileSync(doc, 'a contract\n');
  const created = service.proofseal(
    ['request', 'create', doc, '--signer', 'Ann Lee <ann@example.com>', '--hash-only', '--draft', '--json'],
    settings,
  );
  const id = (JSON.parse(created) as { id: string }).id;
  const node = (...a: string[]) => [process.execPath, ...a];
  const commands: [string, string[], string][] = [
    ['node -e 0 (reference: a bare Node start)', node('-e', '0'), dataDir],
    ['proofseal --help', node(service.MAIN, '--help'), dataDir],
    ['proofseal request show <id>', node(service.MAIN, 'request', 'show', id), dataDir],
    ['proofseal request show <id> --json', node(service.MAIN, 'request', 'show', id, '--json'), dataDir],
    ['proofseal outbox mail (through the socket)', node(service.MAIN, 'outbox', 'mail'), dataDir],
  ];
  // npx needs a checkout (a copy of an earlier build given by BENCH_PROOFSEAL_BIN is none): npm's part is the same.
  if (service.MAIN === path.join(root, 'bin', 'proofseal.js'))
    commands.push(['npx proofseal --help (in the checkout)', ['npx', '--no-install', 'proofseal', '--help'], root]);
  const samples = new Map<string, Sample[]>(commands.map(([name]) => [name, []]));
  // In turns, so a change in the machine's load reaches every command alike.
  for (let i = 0; i < runs; i++)
    for (const [name, command, cwd] of commands) samples.get(name)!.push(measure(command, env, cwd));
  for (const [name, list] of samples) {
    const cpu = list.map((s) => s.cpu);
    const wall = list.map((s) => s.wall);
    console.log(
      `  ${name.padEnd(44)} CPU ${median(cpu).toFixed(2)} s (lowest ${min(cpu).toFixed(2)}), wall ${median(wall).toFixed(2)} s`,
    );
  }
} finally {
  await service.stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(secpLine('after'));
console.log(`  ${loadAverage()}`);
