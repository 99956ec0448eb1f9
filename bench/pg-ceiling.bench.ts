/**
 * What the PostgreSQL server of this box does alone, without proofseal: the ceilings docs/scaling.md
 * models a primary from. PostgreSQL's own pgbench (C, prepared statements, `--clients` connections) runs
 * in a database of its own (`proofseal_ceiling`) on the service's anchor table, built by its migrations:
 *   - inserts as the group commit writes them: 64 rows per INSERT, one per transaction (rows/s);
 *   - one-row transactions: the commit (WAL flush) rate with nothing to share it;
 *   - point reads by primary key over `--rows` stored rows (an anchor's receipt row), and the same 64 ids
 *     per statement (`= ANY`, as concurrent first reads are coalesced).
 * Each with the PostgreSQL backends' CPU per row (the postmaster's ended children) and the WAL written per
 * row, beside libsecp256k1 recoveries on one core and the load average of the same run.
 *   node --import tsx bench/pg-ceiling.bench.ts [--clients 16] [--seconds 10] [--rows 300000]
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../src/adapters/store/create-store.js';
import { endedChildrenCpu, pgbenchPath, postmasterPid } from './lib/pgbench-reference.js';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    rows: { type: 'string', default: '300000' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE = 'proofseal_ceiling';
const rows = Number(args.rows);

/**
 * The anchor table is the service's own: the project's migrations build it in a schema of its own in that
 * database (every index and constraint as the service has them; a migration that changes them changes what
 * this bench measures). The account needs no row: the anchor's account is not a foreign key (migration 030).
 */
const SCHEMA_NAME = 'ceiling';
const TABLE = `${SCHEMA_NAME}.anchor`;

/** An insert of `count` rows, each id the expression `id` of the row number `g`. */
const ROWS = (count: string, id: string) => `
INSERT INTO ${TABLE} (id, account_id, name, kind, hash, signature, pub_key, leaf, created, last_modified)
SELECT ${id}, '00000000-0000-4000-8000-000000000001', 'anchor', 'signature',
  md5(random()::text) || md5(random()::text), repeat('S', 88), repeat('02', 33), decode(md5(random()::text), 'hex'),
  1764000000000, 1764000000000
FROM generate_series(1, ${count}) AS g;`;

const SCRIPTS = {
  'inserts, 64 rows per statement and transaction': { perTx: 64, text: ROWS('64', 'gen_random_uuid()') },
  'one-row transactions (commits)': { perTx: 1, text: ROWS('1', 'gen_random_uuid()') },
  'point reads by primary key': {
    perTx: 1,
    text: `\\set n random(1, ${rows})\nSELECT * FROM ${TABLE} WHERE id = md5('r' || :n)::uuid;`,
  },
  'point reads, 64 ids per statement (= ANY)': {
    perTx: 64,
    text: `\\set n random(1, ${rows - 64})\nSELECT * FROM ${TABLE} WHERE id = ANY (ARRAY(SELECT md5('r' || g)::uuid FROM generate_series(:n, :n + 63) AS g));`,
  },
};

async function main(): Promise<void> {
  const url = new URL(POSTGRES_URL);
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  const settings = await admin.query(
    "SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_connections') ORDER BY name",
  );
  await admin.end();
  url.pathname = `/${DATABASE}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  console.log(`\n[PostgreSQL alone, pgbench] ${args.clients} clients, ${args.seconds} s each; ${loadAverage()}`);
  console.log(`  server: ${settings.rows.map((r) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(', ')}`);
  const secp = secpRecoveriesPerSecond();
  console.log(
    `  libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second)`,
  );
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA_NAME} CASCADE`);
  const migrated = new URL(url);
  migrated.searchParams.set('schema', SCHEMA_NAME);
  await (await openStore({ databaseUrl: migrated.toString(), embeddedDir: undefined, now: Date.now })).close();
  // The rows the reads look up: ids md5('r' || n) for n in 1..rows.
  await db.query(ROWS(String(rows), "md5('r' || g)::uuid"));
  await db.query(`VACUUM ANALYZE ${TABLE}`);
  console.log(
    `  ${rows} rows stored for the reads (${(await db.query('SELECT pg_size_pretty(pg_total_relation_size($1)) AS s', [TABLE])).rows[0].s} with indexes)`,
  );
  const conn = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres')];
  const postmaster = postmasterPid();
  for (const [label, { perTx, text }] of Object.entries(SCRIPTS)) {
    const script = path.join(os.tmpdir(), `proofseal-ceiling-${process.pid}.sql`);
    writeFileSync(script, text);
    const lsn0 = (await db.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l;
    const pg0 = postmaster === undefined ? 0 : endedChildrenCpu(postmaster);
    const threads = String(Math.min(Number(args.clients), os.cpus().length));
    const run = spawnSync(
      pgbenchPath(),
      [
        '-n',
        '-M',
        'prepared',
        '-c',
        args.clients!,
        '-j',
        threads,
        '-T',
        args.seconds!,
        '-f',
        script,
        ...conn,
        DATABASE,
      ],
      { encoding: 'utf8' },
    );
    // The postmaster counts a backend's CPU once it has reaped it, a moment after pgbench ends.
    await new Promise((r) => setTimeout(r, 1000));
    const pgCpu = postmaster === undefined ? undefined : endedChildrenCpu(postmaster) - pg0;
    const wal = Number((await db.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d', [lsn0])).rows[0].d);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1]);
    const latency = /latency average = ([\d.]+) ms/.exec(run.stdout)?.[1];
    const done = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
    if (run.status !== 0 || !(done > 0)) {
      console.log(`  ${label}: failed (${run.error?.message ?? run.stderr.trim().split('\n').at(-1)})`);
      continue;
    }
    const perRow = (v: number) => v / (done * perTx);
    console.log(
      `  ${label}: ${Math.round(tps * perTx)} rows/s (${Math.round(tps)} statements/s, latency mean ${latency} ms); per row: backends ${pgCpu === undefined ? '?' : (1e6 * perRow(pgCpu)).toFixed(1)} µs CPU, WAL ${Math.round(perRow(wal))} bytes; ${loadAverage()}`,
    );
  }
  await db.query(`DROP SCHEMA ${SCHEMA_NAME} CASCADE`);
  await db.end();
}

await main();
