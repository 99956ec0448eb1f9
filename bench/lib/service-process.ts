/**
 * The built service (`node dist/main.js`) run as an operator runs it, for the benchmarks of the whole
 * service: operator commands, a started service waited for on /ready, the RSS of its process tree.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
/**
 * The `proofseal` binary (bin/proofseal.js calls dist/main.js's `main`; dist/main.js alone runs nothing).
 * `BENCH_PROOFSEAL_BIN` names another one, such as a copy of an earlier build (its `bin/` and `dist/` beside a
 * link to node_modules), to measure before and after in turns.
 */
export const MAIN = process.env.BENCH_PROOFSEAL_BIN ?? path.join(root, 'bin', 'proofseal.js');

/** `npm start`'s build step: compiles src/ into dist/ when a source changed since the last build. */
export function buildIfChanged(): void {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-changed.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

/** Runs `proofseal <args>` to completion; returns its stdout, trimmed. */
export function proofseal(args: string[], env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`proofseal ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

/** An account and an API token of it, made with the operator commands; returns the token. */
export function operatorToken(env: Record<string, string>): string {
  proofseal(['account', 'create', '--email', 'bench@example.com', '--password', 'bench password 123'], env);
  return proofseal(['token', 'create', '--email', 'bench@example.com', '--name', 'bench'], env);
}

/** A service's settings on a fresh DATA_DIR (and schema), migrated, with an operator's API token. */
export interface FreshService {
  readonly env: Record<string, string>;
  readonly token: string;
  /** Removes the DATA_DIR and, through `db` (a connection to the server), the schema and its job queue's. */
  remove(db: { query(text: string): Promise<unknown> } | null): Promise<void>;
}

/**
 * Settings for a service of the bench `name`: a fresh DATA_DIR; with `postgresUrl`, a fresh schema whose
 * connections carry `applicationName` (so their backends' CPU can be read); migrated, and an account with an
 * API token made by the operator commands. `env` adds or overrides settings.
 */
export function freshService(opts: {
  name: string;
  postgresUrl?: string;
  applicationName: string;
  env?: Record<string, string>;
}): FreshService {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `proofseal-${opts.name}-`));
  const schema = opts.postgresUrl ? `t_${opts.name}_${randomBytes(4).toString('hex')}` : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-secret-key-of-at-least-32-characters',
    LOG_LEVEL: 'warn',
    ...(schema
      ? { DATABASE_URL: `${opts.postgresUrl}?schema=${schema}&application_name=${opts.applicationName}` }
      : {}),
    ...opts.env,
  };
  proofseal(['migrate'], env);
  return {
    env,
    token: operatorToken(env),
    async remove(db) {
      if (schema && db)
        await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts `command` (its output to the void, so logging costs what it costs a service) and waits for /ready. */
export async function startUntilReady(
  command: string[],
  env: Record<string, string>,
  port: number,
  onSpawn?: (child: ChildProcess) => void,
): Promise<{ child: ChildProcess; seconds: number }> {
  const t0 = performance.now();
  // A process group of its own: stopping it reaches the service behind a wrapper such as npm.
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...env },
    stdio: 'ignore',
    detached: true,
  });
  onSpawn?.(child);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  for (;;) {
    if (exited !== null) throw new Error(`${command.join(' ')} exited with ${exited}`);
    const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { child, seconds: (performance.now() - t0) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGTERM to the process group of a child of {@link startUntilReady}, then waits until none of it is left. */
export async function stop(child: ChildProcess): Promise<void> {
  const tree = processTree(child.pid!);
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  while (tree.some(alive)) await new Promise((resolve) => setTimeout(resolve, 50));
}

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids of a process and all its descendants (from /proc). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))![1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while the table was read
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** RSS in MB of each process of the tree, by command line. */
export function treeRss(pid: number): { pid: number; command: string; rssMb: number }[] {
  return processTree(pid).flatMap((p) => {
    try {
      const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      const command = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim();
      return [{ pid: p, command, rssMb: rssKb / 1024 }];
    } catch {
      return [];
    }
  });
}

/**
 * PSS in MB of a process (`/proc/PID/smaps_rollup`): its RSS with each page shared with other processes
 * (the node binary's code, mapped by npm and the service alike) counted in proportion, so the PSS of a
 * tree adds up to what it occupies, where its RSS counts shared pages once per process. 0 once ended.
 */
export function pssMb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** A free TCP port on the loopback. */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds (user + system) used so far by each of `pids` together; ended processes count 0. With
 * `withEndedChildren`, the CPU of their children that ended and were waited for counts too (a set-up child).
 */
export function cpuSeconds(pids: number[], withEndedChildren = false): number {
  const ticks = pids.reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const children = withEndedChildren ? Number(fields[13]) + Number(fields[14]) : 0;
      return sum + Number(fields[11]) + Number(fields[12]) + children;
    } catch {
      return sum;
    }
  }, 0);
  return ticks / 100;
}

/** The PostgreSQL backends serving connections named `applicationName` (the database runs on this machine). */
export async function backendPids(
  client: { query(q: string, p: unknown[]): Promise<{ rows: { pid: number }[] }> },
  applicationName: string,
): Promise<number[]> {
  const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    applicationName,
  ]);
  return rows.map((r) => r.pid);
}
