/**
 * A PostgreSQL primary, a streaming replica and PgBouncer in front of the primary, built on this machine from
 * Debian's packages (PostgreSQL 15's initdb, pg_ctl and pg_basebackup; pgbouncer), each on a free port, their
 * data under one temporary folder, torn down after. The machine's own cluster (5432) is never touched.
 * Run as root (as `.ci/run` does), the servers run as the `postgres` user; run as another user, as that user.
 * A run killed before its teardown leaves its folder behind: the next run stops its servers and removes it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes.js';
import { waitUntil } from './wait.js';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PREFIX = 'proofseal-replicas-';
/** The file naming the test process that owns a folder; a folder whose owner is gone is stale. */
const OWNER_FILE = 'owner.pid';

export type PoolMode = 'session' | 'transaction';

export interface ReplicaCluster {
  /** The database through PgBouncer (what the service's DATABASE_URL names). */
  readonly poolerUrl: string;
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** host:port of the replica, as `/ready` names it. */
  readonly replicaName: string;
  /** One statement on `on`, rows as objects. */
  query<T = Record<string, unknown>>(on: 'primary' | 'replica', text: string, params?: unknown[]): Promise<T[]>;
  stopPrimary(mode?: 'fast' | 'immediate'): Promise<void>;
  startPrimary(): Promise<void>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Promotes the replica and points PgBouncer at it (its config rewritten, then reloaded). */
  promoteReplica(): Promise<void>;
  /** Resolves when the replica has replayed everything the primary has written. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Runs one of PostgreSQL's or PgBouncer's programs, as `postgres` when this process is root. */
async function as(file: string, args: string[]): Promise<string> {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  try {
    return (await run(cmd, argv, { maxBuffer: 1 << 22 })).stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed: ${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the servers of the folders left by runs that were killed before their teardown, and removes them. */
export function removeStaleClusters(): void {
  for (const name of readdirSync(os.tmpdir()).filter((n) => n.startsWith(PREFIX))) {
    const dir = path.join(os.tmpdir(), name);
    const owner = Number(readFileSync(path.join(dir, OWNER_FILE), { encoding: 'utf8', flag: 'a+' }) || 0);
    if (owner !== 0 && alive(owner)) continue;
    stopFolder(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stops whatever runs from `dir` (synchronously: also used at exit). */
function stopFolder(dir: string): void {
  const bouncerPid = path.join(dir, 'pgbouncer.pid');
  if (existsSync(bouncerPid)) {
    const pid = Number(readFileSync(bouncerPid, 'utf8'));
    if (pid > 0 && alive(pid)) process.kill(pid, 'SIGTERM');
  }
  for (const data of ['primary', 'replica'].map((n) => path.join(dir, n))) {
    if (!existsSync(path.join(data, 'postmaster.pid'))) continue;
    const argv = [path.join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    try {
      execFileSync(asRoot ? 'runuser' : argv[0]!, asRoot ? ['-u', 'postgres', '--', ...argv] : argv.slice(1), {
        stdio: 'ignore',
      });
    } catch {
      /* not running */
    }
  }
}

const SERVER_SETTINGS = (port: number, dir: string) => `
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
fsync = off
full_page_writes = off
wal_keep_size = '128MB'
max_connections = 120
shared_buffers = '32MB'
`;

function bouncerIni(dir: string, port: number, serverPort: number, mode: PoolMode): string {
  return `[databases]
test = host=127.0.0.1 port=${serverPort} dbname=test
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
pidfile = ${dir}/pgbouncer.pid
logfile = ${dir}/pgbouncer.log
auth_type = trust
auth_file = ${dir}/userlist.txt
pool_mode = ${mode}
max_client_conn = 300
default_pool_size = 100
ignore_startup_parameters = extra_float_digits
server_login_retry = 1
server_connect_timeout = 3
query_wait_timeout = 10
`;
}

/** Builds the primary, its replica and the pooler; `close` (also run at exit) tears them down. */
export async function startReplicaCluster(opts: { poolMode?: PoolMode } = {}): Promise<ReplicaCluster> {
  removeStaleClusters();
  const dir = mkdtempSync(path.join(os.tmpdir(), PREFIX));
  writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const onExit = () => {
    stopFolder(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    return await build(dir, opts.poolMode ?? 'session', onExit);
  } catch (err) {
    onExit();
    process.off('exit', onExit);
    throw err;
  }
}

async function build(dir: string, mode: PoolMode, onExit: () => void): Promise<ReplicaCluster> {
  const [primaryPort, replicaPort, bouncerPort] = [await freePort(), await freePort(), await freePort()];
  const primary = path.join(dir, 'primary');
  const replica = path.join(dir, 'replica');
  const ctl = (data: string, ...args: string[]) =>
    as(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-l', `${data}.log`, '-w', '-t', '60', ...args]);
  await as(path.join(PG_BIN, 'initdb'), ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  writeFileSync(path.join(primary, 'postgresql.auto.conf'), SERVER_SETTINGS(primaryPort, dir), { flag: 'a' });
  await ctl(primary, 'start');
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/test`;
  await as(path.join(PG_BIN, 'createdb'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', 'test']);
  await as(path.join(PG_BIN, 'pg_basebackup'), [
    ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
    ...['-D', replica, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
  ]);
  writeFileSync(path.join(replica, 'postgresql.auto.conf'), `port = ${replicaPort}\n`, { flag: 'a' });
  await ctl(replica, 'start');
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/test`;
  const ini = path.join(dir, 'pgbouncer.ini');
  const writeIni = (serverPort: number) => {
    writeFileSync(ini, bouncerIni(dir, bouncerPort, serverPort, mode));
    if (asRoot) chownSync(ini, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  };
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeIni(primaryPort);
  await as('/usr/sbin/pgbouncer', ['-d', ini]);
  const poolerUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/test`;

  const clients = { primary: primaryUrl, replica: replicaUrl };
  const query = async <T>(on: 'primary' | 'replica', text: string, params?: unknown[]): Promise<T[]> => {
    const client = new pg.Client({ connectionString: clients[on] });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const streaming = async () =>
    (await query<{ n: number }>('primary', 'SELECT count(*)::int AS n FROM pg_stat_replication'))[0]!.n === 1;
  await waitUntil(streaming, 'the replica to stream', 30_000);
  const caughtUp = () =>
    waitUntil(
      async () => {
        const [at] = await query<{ lsn: string }>('primary', 'SELECT pg_current_wal_lsn()::text AS lsn');
        const sql = 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok';
        return (await query<{ ok: boolean }>('replica', sql, [at!.lsn]))[0]!.ok;
      },
      'the replica to catch up',
      30_000,
    );
  return {
    poolerUrl,
    primaryUrl,
    replicaUrl,
    replicaName: `127.0.0.1:${replicaPort}`,
    query,
    stopPrimary: async (m = 'fast') => {
      await ctl(primary, '-m', m, 'stop');
    },
    startPrimary: async () => {
      await ctl(primary, 'start');
    },
    stopReplica: async () => {
      await ctl(replica, '-m', 'fast', 'stop');
    },
    startReplica: async () => {
      await ctl(replica, 'start');
    },
    async promoteReplica() {
      await ctl(replica, 'promote');
      writeIni(replicaPort);
      const pid = Number(readFileSync(path.join(dir, 'pgbouncer.pid'), 'utf8'));
      process.kill(pid, 'SIGHUP');
    },
    caughtUp,
    async close() {
      process.off('exit', onExit);
      onExit();
    },
  };
}
