/**
 * Closing a batch: time and peak memory of `closeBatch` (the anchors' seq range claimed, their leaves read
 * back a chunk at a time, each chunk's blinded subtree hashed on worker threads as the service does, the levels
 * from level 1 up stored in parts beside one new batch row, in one transaction; no anchor row written) for
 * 100,000 and 1,000,000 anchors, on PGlite (on a folder, as the default run keeps it) and on PostgreSQL
 * (TEST_DATABASE_URL, default 127.0.0.1:5432/test, in a schema of its own).
 * The anchors are inserted first with SQL (100,000 rows per statement); that time is printed apart.
 * Each case runs in a child process of its own, so its peak RSS is its own; the peak over the close alone is
 * printed beside it (Linux: VmHWM reset just before the close). Printed too: the CPU seconds the
 * process spent closing (all its threads; on PGlite the database's work too), and the time spent in each
 * store step (reading the leaves overlaps the hashing, so the steps do not add up to the whole).
 * Run: node --expose-gc --import tsx bench/batch.bench.ts   (prints figures; never fails on a timing)
 *      node --import tsx bench/batch.bench.ts postgres 100000   (one case)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chunkWorkers } from '../src/adapters/merkle/chunk-workers.js';
import { openStore } from '../src/adapters/store/create-store.js';
import type { Store } from '../src/app/shared/store.port.js';
import { closeBatch } from '../src/app/anchoring/close-batch.js';
import { createAccount } from '../src/app/accounts/create-account.js';
import { testDeps } from '../test/support/fixtures.js';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import { dropSchema, newSchemaName, schemaUrl } from '../test/support/stores.js';

const MB = 1024 * 1024;
const CHUNK = Number(process.env.BENCH_INSERT_ROWS ?? 100_000);
const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
const rssMb = (): number => Math.round(process.memoryUsage().rss / MB);

/**
 * The kernel's peak RSS of this process since the last {@link resetPeakRss} (VmHWM), in MB; null where
 * /proc does not give it. Lets the close's own peak be told from the insert's before it.
 */
function windowPeakRssMb(): number | null {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return hwm ? Math.round(Number(hwm[1]) / 1024) : null;
  } catch {
    return null;
  }
}
/** Resets VmHWM to the current RSS (Linux: `5` to /proc/self/clear_refs); false where it cannot. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

interface CaseResult {
  store: string;
  anchors: number;
  insertMs: number;
  closeMs: number;
  closeCpuMs: number;
  steps: Record<string, number>;
  rssBeforeCloseMb: number;
  /** The process's peak RSS over the close alone (threads started before it), or null where not measurable. */
  closePeakRssMb: number | null;
  /** The process's peak RSS over its whole life, the insert of the anchors included. */
  peakRssMb: number;
  treeMb: number;
}

/** The store with the time spent in each method of its batches (in or out of a transaction) added to `steps`. */
function timedStore(store: Store, steps: Record<string, number>): Store {
  const timed = (batches: Store['batches']): Store['batches'] =>
    new Proxy(batches, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const start = performance.now();
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            steps[String(key)] = (steps[String(key)] ?? 0) + performance.now() - start;
          }
        };
      },
    });
  return {
    ...store,
    batches: timed(store.batches),
    transaction: (fn) => store.transaction((tx) => fn({ ...tx, batches: timed(tx.batches) })),
  };
}

async function runCase(storeName: 'pglite' | 'postgres', n: number): Promise<CaseResult> {
  const schema = newSchemaName();
  // PGlite on a folder, as the default run keeps it (DATA_DIR/pglite), not in memory.
  const dir = storeName === 'pglite' ? await mkdtemp(path.join(os.tmpdir(), 'proofseal-bench-')) : undefined;
  const opened = await openStore({
    databaseUrl: storeName === 'postgres' ? schemaUrl(schema) : undefined,
    embeddedDir: dir && path.join(dir, 'pglite'),
    now: Date.now,
  });
  const hashing = chunkWorkers({ threads: process.env.BENCH_THREADS ? Number(process.env.BENCH_THREADS) : undefined });
  try {
    // The send job closing queues is one row; the bench leaves the job engine out (a queue that accepts it).
    const deps = testDeps(opened.withJobs(() => ({ send: async () => null })));
    const account = await createAccount(deps, {
      email: `bench-${randomUUID()}@example.com`,
      password: 'correct horse battery',
    });
    let start = performance.now();
    for (let done = 0; done < n; done += CHUNK) {
      const leaves = Array.from({ length: Math.min(CHUNK, n - done) }, () => randomBytes(32));
      await opened.db.query(
        `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
         SELECT gen_random_uuid(), $1, 'bench', 'data', encode(l, 'hex'), l, 0, 0 FROM unnest($2::bytea[]) AS l`,
        [account.id, leaves],
      );
    }
    const insertMs = performance.now() - start;
    globalThis.gc?.();
    const rssBeforeCloseMb = rssMb();
    if (process.env.BENCH_MEMORY) console.error(JSON.stringify(process.memoryUsage()));
    const steps: Record<string, number> = {};
    // The threads start before the clock: from the sources each one compiles TypeScript first (tsx), which a
    // built service does not (its threads start in some tens of ms, at the first chunk of a close).
    const warm = () => ({ key: randomBytes(32), leaves: randomBytes(4096 * 32), offsets: null, first: 0, count: 4096 });
    await Promise.all(Array.from({ length: os.availableParallelism() }, () => hashing.hash(warm())));
    if (process.env.BENCH_MEMORY) console.error('threads started', JSON.stringify(process.memoryUsage()));
    // BENCH_MEMORY=1: process.memoryUsage() at the highest RSS seen during the close (sampled every 50 ms).
    let top = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > top.rss) top = m;
    }, 50);
    if (!process.env.BENCH_MEMORY) clearInterval(sampler);
    const peakReset = resetPeakRss();
    start = performance.now();
    const cpu = process.cpuUsage();
    const closed = await closeBatch(
      { ...deps, store: timedStore(deps.store, steps), chunkHasher: hashing.hash },
      { maxSize: n },
    );
    const closeMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const closePeakRssMb = peakReset ? windowPeakRssMb() : null;
    clearInterval(sampler);
    if (process.env.BENCH_MEMORY) console.error('at the peak', JSON.stringify(top));
    if (process.env.BENCH_MEMORY) console.error('after', JSON.stringify(process.memoryUsage()));
    if (closed?.anchorCount !== n) throw new Error(`closed ${closed?.anchorCount} of ${n}`);
    const [size] = await opened.db.query<{ b: number }>(
      'SELECT sum(octet_length(nodes))::int AS b FROM batch_tree_part WHERE batch_id = $1',
      [closed.batchId],
    );
    return {
      store: storeName,
      anchors: n,
      insertMs: Math.round(insertMs),
      closeMs: Math.round(closeMs),
      closeCpuMs: Math.round((used.user + used.system) / 1000),
      steps: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, Math.round(v)])),
      rssBeforeCloseMb,
      closePeakRssMb,
      peakRssMb: peakRssMb(),
      treeMb: Math.round((size!.b / MB) * 10) / 10,
    };
  } finally {
    await hashing.close();
    await opened.close();
    if (storeName === 'postgres') await dropSchema(schema);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

const [storeArg, nArg] = process.argv.slice(2);
if (storeArg) {
  console.log(JSON.stringify(await runCase(storeArg as 'pglite' | 'postgres', Number(nArg))));
} else {
  console.log('close-batch: one batch of N anchors (tree + storage), each case in its own process');
  const secp = secpRecoveriesPerSecond();
  console.log(
    `reference: libsecp256k1 ${Math.round(secp.wall)} recoveries/s on one core (${Math.round(secp.perCpuSecond)} per CPU second); ${loadAverage()}`,
  );
  console.log(
    'store     anchors    insert (SQL, apart)  close batch  close CPU   RSS before close  peak RSS: close / process  tree stored  store steps (ms)',
  );
  for (const store of ['pglite', 'postgres']) {
    for (const n of [100_000, 1_000_000]) {
      const r = spawnSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', new URL(import.meta.url).pathname, store, String(n)],
        { encoding: 'utf8', maxBuffer: 16 * MB },
      );
      const line = r.stdout.trim().split('\n').pop() ?? '';
      console.log(`  (${loadAverage()})`);
      if (r.status !== 0 || !line.startsWith('{')) {
        console.log(
          `${store.padEnd(9)} ${String(n).padStart(9)}  failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`,
        );
        continue;
      }
      const c = JSON.parse(line) as CaseResult;
      console.log(
        `${c.store.padEnd(9)} ${String(c.anchors).padStart(9)}  ${`${(c.insertMs / 1000).toFixed(1)} s`.padStart(19)}  ${`${(c.closeMs / 1000).toFixed(2)} s`.padStart(11)}  ${`${(c.closeCpuMs / 1000).toFixed(2)} s`.padStart(9)}  ${`${c.rssBeforeCloseMb} MB`.padStart(16)}  ${`${c.closePeakRssMb ?? '?'} / ${c.peakRssMb} MB`.padStart(25)}  ${`${c.treeMb} MB`.padStart(11)}  ${JSON.stringify(c.steps)}`,
      );
    }
  }
}
