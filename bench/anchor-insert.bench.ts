/**
 * The store side of an anchor insert alone: the anchor repository's grouped insert (group commit, one
 * autocommit statement per group) as the service runs it, without HTTP or signature checks. Signature anchors
 * built beforehand (as create-anchor builds them) are handed to `store.anchors.insert` a group at a time, each
 * group waited for before the next (one group in flight). For each group size it prints the CPU per anchor of
 * this process (the repository, the driver, and on the embedded store PGlite itself, which runs on this thread)
 * and of this run's PostgreSQL backends (named by application_name, read from /proc), the WAL written per
 * anchor (the server's, so other sessions add to it on a shared box), beside libsecp256k1 recoveries per CPU
 * second on one core measured in the same run.
 *   node --import tsx bench/anchor-insert.bench.ts [--store postgres|embedded|both] [--anchors 20000]
 *     [--groups 16,64,256,1000] [--prefill 100000] [--rounds 3]
 * `--prefill` rows are inserted first by SQL (so the indexes have the depth of a store in use); each group
 * size runs `--rounds` times, interleaved, and the median is printed. `--before ID` measures, interleaved
 * with it, a second store of each kind migrated only up to the migration before ID (a schema change's
 * effect, within one run).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore, type OpenedStore } from '../src/adapters/store/create-store.js';
import { migrate } from '../src/adapters/store/migrate.js';
import { migrations } from '../src/adapters/store/migrations/index.js';
import type { NewAnchor } from '../src/app/anchoring/anchor.port.js';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import { backendPids, cpuSeconds } from './lib/service-process.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '20000' },
    groups: { type: 'string', default: '16,64,256,1000' },
    prefill: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    before: { type: 'string' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ACCOUNT = randomUUID();
const PUB_KEY = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

/** Signature anchors as create-anchor makes them (public, no tags, no metadata, an identity URL). */
function signatureAnchors(n: number): NewAnchor[] {
  return Array.from({ length: n }, (_, i) => {
    const signature = randomBytes(65).toString('base64');
    return {
      id: randomUUID(),
      accountId: ACCOUNT,
      name: `bench-${i}`,
      kind: 'signature',
      hash: randomBytes(32).toString('hex'),
      signature,
      pubKey: PUB_KEY,
      identityUrl: 'https://id.example.com/identity',
      signedIdentity: null,
      signedIssuerDomain: null,
      leaf: createHash('sha256').update(signature, 'latin1').digest(),
      public: true,
      tags: [],
      metadata: null,
      callbackUrl: null,
      created: Date.now(),
    };
  });
}

interface Run {
  /** This process's CPU per anchor (µs). */
  readonly api: number;
  /** The PostgreSQL backends' CPU per anchor (µs); 0 on the embedded store. */
  readonly backends: number;
  /** WAL bytes per anchor (PostgreSQL). */
  readonly wal: number;
  readonly perSecond: number;
}

interface Target {
  readonly name: string;
  readonly opened: OpenedStore;
  /** This run's PostgreSQL backends, looked up at each measurement (the pool replaces idle connections). */
  readonly backends: () => Promise<number[]>;
  readonly walLsn: () => Promise<string | null>;
  readonly walSince: (lsn: string) => Promise<number>;
  close(): Promise<void>;
}

/** The migrations a target applies: all of them, or those before `before`. */
function migrationsUpTo(before: string | undefined): typeof migrations {
  if (before === undefined) return migrations;
  const at = migrations.findIndex((m) => m.id === before);
  if (at < 0) throw new Error(`no migration ${before}`);
  return migrations.slice(0, at);
}

async function openTarget(kind: 'postgres' | 'embedded', before: string | undefined): Promise<Target> {
  const label = before === undefined ? kind : `${kind}, before ${before}`;
  const applying = migrationsUpTo(before);
  if (kind === 'embedded') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-insert-bench-'));
    const opened = await openStore({
      databaseUrl: undefined,
      embeddedDir: path.join(dir, 'store'),
      now: Date.now,
      migrate: false,
    });
    await migrate(opened.db, Date.now, applying);
    return {
      name: label,
      opened,
      backends: async () => [],
      walLsn: async () => null,
      walSince: async () => 0,
      close: async () => {
        await opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_insert_${process.pid}_${before === undefined ? 'now' : 'before'}`;
  const opened = await openStore({
    databaseUrl: `${POSTGRES_URL}?schema=${schema}&application_name=${schema}`,
    embeddedDir: undefined,
    now: Date.now,
    poolSize: 4,
    migrate: false,
  });
  await migrate(opened.db, Date.now, applying);
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  return {
    name: label,
    opened,
    backends: () => backendPids(admin, schema),
    walLsn: async () => (await admin.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0]!.l,
    walSince: async (lsn) =>
      Number(
        (await admin.query<{ d: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS d', [lsn]))
          .rows[0]!.d,
      ),
    close: async () => {
      await opened.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

async function prepare(t: Target, prefill: number): Promise<void> {
  await t.opened.db.query(
    `INSERT INTO account (id, email, password_hash, created, last_modified) VALUES ($1, 'bench@example.com', 'x', 0, 0)`,
    [ACCOUNT],
  );
  if (prefill > 0)
    await t.opened.db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, signature, pub_key, identity_url, leaf, public, created, last_modified)
       SELECT gen_random_uuid(), $1, 'prefill-' || g, 'signature', md5(random()::text) || md5(random()::text), repeat('S', 88),
              $2, 'https://id.example.com/identity', sha256(random()::text::bytea), true, 0, 0
       FROM generate_series(1, $3::int) AS g`,
      [ACCOUNT, PUB_KEY, prefill],
    );
  // A first group prepares the statement on each connection used.
  await Promise.all(signatureAnchors(8).map((a) => t.opened.store.anchors.insert(a)));
}

async function measure(t: Target, n: number, group: number): Promise<Run> {
  const anchors = signatureAnchors(n);
  await t.opened.db.query('SELECT $1::int AS warm', [1]);
  const pids = await t.backends();
  const lsn = await t.walLsn();
  const backends0 = cpuSeconds(pids);
  const api0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i += group)
    await Promise.all(anchors.slice(i, i + group).map((a) => t.opened.store.anchors.insert(a)));
  const seconds = (performance.now() - t0) / 1000;
  const api = process.cpuUsage(api0);
  const backends = cpuSeconds(pids) - backends0;
  const wal = lsn === null ? 0 : await t.walSince(lsn);
  return {
    api: (api.user + api.system) / n,
    backends: (backends * 1e6) / n,
    wal: wal / n,
    perSecond: n / seconds,
  };
}

/**
 * CPU per trivial statement (`SELECT $1::int`, one after the other): what a statement costs whatever it
 * does — on this process, mostly the wakeup of a thread that waited for the answer — beside which a
 * group's fixed cost is read.
 */
async function roundTrip(t: Target, count = 1000): Promise<{ api: number; backends: number }> {
  await t.opened.db.query('SELECT $1::int AS warm', [1]);
  const pids = await t.backends();
  const backends0 = cpuSeconds(pids);
  const api0 = process.cpuUsage();
  for (let i = 0; i < count; i++) await t.opened.db.query('SELECT $1::int AS n', [i]);
  const api = process.cpuUsage(api0);
  return { api: (api.user + api.system) / count, backends: ((cpuSeconds(pids) - backends0) * 1e6) / count };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const kinds = args.store === 'both' ? (['postgres', 'embedded'] as const) : [args.store as 'postgres' | 'embedded'];
  const n = Number(args.anchors);
  const groups = args.groups.split(',').map(Number);
  const secp = secpRecoveriesPerSecond();
  const recovery = 1e6 / secp.perCpuSecond;
  console.log(
    `libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second = ${recovery.toFixed(1)} µs each); ${loadAverage()}`,
  );
  for (const kind of kinds) {
    const targets: Target[] = [];
    try {
      for (const before of args.before === undefined ? [undefined] : [undefined, args.before])
        targets.push(await openTarget(kind, before));
      const prefill = kind === 'postgres' ? Number(args.prefill) : Math.min(Number(args.prefill), 20_000);
      for (const t of targets) await prepare(t, prefill);
      const runs = new Map<string, Run[]>();
      for (let r = 0; r < Number(args.rounds); r++)
        for (const g of groups)
          for (const t of targets) {
            const key = `${t.name}|${g}`;
            runs.set(key, [...(runs.get(key) ?? []), await measure(t, n, g)]);
          }
      const trip = await roundTrip(targets[0]!);
      console.log(
        `\n[${kind}] a trivial statement (SELECT $1::int, 1,000 in turn): this process ${trip.api.toFixed(0)} µs` +
          (kind === 'postgres' ? `, PostgreSQL backend ${trip.backends.toFixed(0)} µs` : ' (PGlite included)'),
      );
      for (const t of targets) {
        console.log(`[${t.name}] ${n} signature anchors per measurement, median of ${args.rounds}; ${loadAverage()}`);
        for (const g of groups) {
          const rs = runs.get(`${t.name}|${g}`)!;
          const api = median(rs.map((x) => x.api));
          const backends = median(rs.map((x) => x.backends));
          console.log(
            `  groups of ${String(g).padStart(4)}: this process ${api.toFixed(1)} µs/anchor` +
              (kind === 'postgres'
                ? `, PostgreSQL backends ${backends.toFixed(1)} µs/anchor, WAL ${Math.round(median(rs.map((x) => x.wal)))} B/anchor`
                : ' (PGlite included)') +
              `; together ${((api + backends) / recovery).toFixed(2)}× one recovery; ${Math.round(median(rs.map((x) => x.perSecond)))} anchors/s` +
              ` [backends ${rs.map((x) => x.backends.toFixed(0)).join(' ')}; process ${rs.map((x) => x.api.toFixed(0)).join(' ')}]`,
          );
        }
      }
    } finally {
      for (const t of targets) await t.close();
    }
  }
}

await main();
