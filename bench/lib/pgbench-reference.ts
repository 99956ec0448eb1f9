/**
 * A ceiling for the signature-request benchmark, measured in the same run: PostgreSQL's own pgbench
 * running transactions of the delegate transaction's shape (eight statements: BEGIN, a read under
 * `FOR UPDATE`, three inserts, an update, a read, COMMIT; prepared, 64 clients) with no HTTP, no
 * signature and no application code. What this box gives for that alone bounds what the service can give
 * for a signature, whatever the service does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuSeconds } from './service-process.js';

/** pgbench's database: its own, so that `pgbench -i` (which drops and creates its tables) touches nothing else. */
const DATABASE = 'proofseal_pgbench';
/** 1,000,000 accounts: 64 clients rarely lock the same row, as signers of different requests never do. */
const SCALE = 10;

/** The transaction: the statements of `POST …/delegate` in kind and number (see docs/performance.md). */
const SCRIPT = `\\set aid random(1, 100000 * :scale)
\\set bid random(1, :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid FOR UPDATE;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT bbalance FROM pgbench_branches WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, 0, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, 1, CURRENT_TIMESTAMP);
END;
`;

/** `PGBENCH`, or pgbench of Debian's PostgreSQL packages, or the one on the PATH. */
export function pgbenchPath(): string {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort().reverse() : [];
  const found = versions.map((v) => path.join(root, v, 'bin', 'pgbench')).find((p) => existsSync(p));
  return found ?? 'pgbench';
}

/** The postmaster's pid: the `postgres` process whose parent is not one. */
export function postmasterPid(): number | undefined {
  const comm = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    if (comm(pid) !== 'postgres') continue;
    try {
      const ppid = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
      if (comm(ppid) !== 'postgres') return Number(pid);
    } catch {
      // ended while read
    }
  }
  return undefined;
}

/** CPU seconds of a process's children that ended and were waited for (pgbench for us, backends for the postmaster). */
export const endedChildrenCpu = (pid: number): number => cpuSeconds([pid], true) - cpuSeconds([pid]);

export interface PgbenchResult {
  transactionsPerSecond: number;
  latencyMs: number;
  /** CPU of the backends that served pgbench, per transaction (ended backends, counted by the postmaster). */
  backendCpuMs: number | undefined;
  /** CPU of pgbench itself per transaction. */
  clientCpuMs: number;
}

/**
 * Runs the transaction above with pgbench for `seconds` at `clients` connections against the server of
 * `postgresUrl` (in a database of its own, created when missing). Undefined, with the reason printed, when
 * pgbench cannot run.
 */
export async function pgbenchReference(
  postgresUrl: string,
  clients: number,
  seconds = 10,
): Promise<PgbenchResult | undefined> {
  const url = new URL(postgresUrl);
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const conn = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
  const bin = pgbenchPath();
  const init = spawnSync(bin, ['-i', '-q', '-s', String(SCALE), ...conn, DATABASE], { encoding: 'utf8' });
  if (init.status !== 0) {
    console.log(`  pgbench reference: not measured (${init.error?.message ?? init.stderr.trim().split('\n').at(-1)})`);
    return undefined;
  }
  const script = path.join(os.tmpdir(), `proofseal-pgbench-${process.pid}.sql`);
  writeFileSync(script, SCRIPT);
  const postmaster = postmasterPid();
  const pg0 = postmaster === undefined ? 0 : endedChildrenCpu(postmaster);
  const self0 = endedChildrenCpu(process.pid);
  const threads = String(Math.min(clients, os.cpus().length));
  const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', threads, '-T', String(seconds), '-f', script];
  const run = spawnSync(bin, [...args, ...conn, DATABASE], { encoding: 'utf8' });
  const clientCpu = endedChildrenCpu(process.pid) - self0;
  const pgCpu = postmaster === undefined ? undefined : endedChildrenCpu(postmaster) - pg0;
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(run.stdout)?.[1];
  const done = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  if (run.status !== 0 || tps === undefined || latency === undefined || done === 0) {
    console.log(`  pgbench reference: failed (${run.error?.message ?? run.stderr.trim().split('\n').at(-1)})`);
    return undefined;
  }
  return {
    transactionsPerSecond: Number(tps),
    latencyMs: Number(latency),
    backendCpuMs: pgCpu === undefined ? undefined : (1000 * pgCpu) / done,
    clientCpuMs: (1000 * clientCpu) / done,
  };
}

/** What one trivial statement costs on each side, through node-postgres on one connection. */
export interface StatementFloor {
  /** `SELECT $1::int`, prepared: backend CPU and this process's CPU, µs per statement. */
  select: { backendUs: number; clientUs: number };
  /** `BEGIN` then `COMMIT` of nothing, µs per statement. */
  beginCommit: { backendUs: number; clientUs: number };
}

/** The floor under any statement of the service: `n` trivial statements of each kind on one connection. */
export async function statementFloor(postgresUrl: string, n = 5000): Promise<StatementFloor> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  const pid = (await client.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
  const measure = async (statements: number, run: () => Promise<unknown>) => {
    const backend0 = cpuSeconds([pid]);
    const self0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await run();
    const self = process.cpuUsage(self0);
    return {
      backendUs: ((cpuSeconds([pid]) - backend0) * 1e6) / (n * statements),
      clientUs: (self.user + self.system) / (n * statements),
    };
  };
  try {
    const select = await measure(1, () => client.query({ name: 'floor', text: 'SELECT $1::int AS x', values: [1] }));
    const beginCommit = await measure(2, async () => {
      await client.query('BEGIN');
      await client.query('COMMIT');
    });
    return { select, beginCommit };
  } finally {
    await client.end();
  }
}
