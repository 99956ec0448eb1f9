import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { acquireStoreLock } from './embedded-lock.js';
import { restrictToOwner } from './owner-only.js';
import type { Sql, SqlDatabase } from './sql.js';

/**
 * bytea in and out through Buffer's hex codec: PGlite's own goes through one JS string per byte (too slow for
 * megabytes, and it fails past some 100 MB), while this one is native. Values read stay Uint8Arrays.
 */
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.BYTEA]: (v: string) => {
    const bytes = Buffer.from(v.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
const serializers = {
  [types.BYTEA]: (v: unknown) => {
    if (!(v instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array');
    return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  },
};

/**
 * PostgreSQL's buffer cache inside the WASM heap. initdb writes `shared_buffers = 128MB`, and PGlite
 * touches all of it when it starts (~125 MB of RSS at once, in a memory that never shrinks). The data
 * files live on disk and the OS caches them, so a small pool costs little: with 8 MB (1,024 pages),
 * inserting 200,000 rows took the same CPU as with 16 or 128 MB, the hot pages of the indexes being read
 * back from the OS cache. Given as start parameters, so the store's own postgresql.conf is left as
 * initdb wrote it.
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=8MB'];
const options = { parsers, serializers, startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS] };

/**
 * A bytea parameter of a query goes as it is, in binary format (pg-protocol writes a Uint8Array parameter
 * as binary): no hex text of twice its size in the JS heap, in the protocol message and in the WASM heap,
 * which keeps the size it grew to. Per query, since PGlite's array serializer (bytea[]) builds text from
 * the instance's bytea serializer above.
 */
const queryOptions = {
  serializers: {
    [types.BYTEA]: (v: unknown) => {
      if (!(v instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array');
      return v as unknown as string;
    },
  },
};

/**
 * V8 compiles PGlite's 9 MB of WASM with its baseline compiler (Liftoff), then recompiles the functions
 * that run hot with its optimising one (TurboFan); the optimised code and the compiler's working memory
 * stay in the process, 40-80 MB of RSS in a service. With Liftoff only, the code is compiled once, the
 * store opens faster and the process stays smaller; the embedded store's own work (the inserts of an
 * ingest) took no more CPU in the measurements of docs/performance-log-archive.md ("Footprint"). The flag is global
 * to the process but read when a module is compiled, so it is set before the first store opens; no other
 * WASM runs in the service.
 */
const WASM_FLAGS = ['--liftoff-only'];
let wasmFlagsSet = false;

function useBaselineWasmCompiler(): void {
  if (wasmFlagsSet) return;
  for (const flag of WASM_FLAGS) v8.setFlagsFromString(flag);
  wasmFlagsSet = true;
}

/**
 * The statements of {@link Sql.writeRows} (an anchor group's insert, say), each parsed and planned once per
 * store instead of at every call: PGlite's `query` sends an unnamed statement, which PostgreSQL parses,
 * analyses and plans again each time (~0.8 ms of the API thread's CPU for the anchor insert, more than
 * writing 8 of its rows). A text is made a session-level prepared statement (`PREPARE`) the first time it
 * is written outside a transaction; later calls, in a transaction or not, run `EXECUTE name(<rows>)`, the
 * rows' JSON given as an escape-string literal (a prepared statement's `EXECUTE` takes no protocol
 * parameter). The texts are the repositories' constants, `$1::jsonb` their only parameter.
 */
class PreparedRows {
  private readonly names = new Map<string, string>();

  /** The statement's name once prepared; undefined before (and for a text PostgreSQL refused to prepare). */
  nameOf(text: string): string | undefined {
    return this.names.get(text);
  }

  /** Prepares `text` outside any transaction (a prepared statement outlives transactions, rolled back or not). */
  async prepare(db: PGlite, text: string): Promise<string | undefined> {
    if (this.names.has(text)) return this.names.get(text);
    const name = `rows_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    try {
      await db.exec(`PREPARE ${name} (jsonb) AS ${text}`);
      this.names.set(text, name);
      return name;
    } catch {
      return undefined; // sent unnamed, as before
    }
  }
}

/**
 * `EXECUTE name(E'...')` for rows: in an escape string only the quote and the backslash are special, each
 * doubled here; JSON text holds no NUL (JSON.stringify escapes control characters).
 */
function executeRows(name: string, rows: readonly object[]): string {
  return `EXECUTE ${name}(E'${JSON.stringify(rows).replace(/['\\]/g, (c) => c + c)}')`;
}

function txSql(tx: Transaction, prepared: PreparedRows): Sql {
  const sql: Sql = {
    query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params, queryOptions)).rows,
    // PGlite runs one statement at a time in this process: nothing to save by not waiting.
    write: async (text, params) => {
      await tx.query(text, params, queryOptions);
    },
    writeRows: async (text, rows) => {
      const name = prepared.nameOf(text);
      if (name === undefined) await tx.query(text, [JSON.stringify(rows)], queryOptions);
      else await tx.query(executeRows(name, rows));
    },
    exec: async (text) => {
      await tx.exec(text);
    },
    transaction: (fn) => fn(sql),
  };
  return sql;
}

/**
 * The embedded PostgreSQL (PGlite, WASM) persisted in `dir`, or in memory when `dir` is undefined.
 * A persisted store is this process's alone: the lock file `store.lock` beside `dir` is taken first
 * (see embedded-lock.ts), and the files are made owner-only (PGlite creates them 0666 minus the umask).
 * @throws StoreHeldError when another live process holds the store.
 */
export async function openEmbedded(dir: string | undefined): Promise<SqlDatabase & { pglite: PGlite }> {
  useBaselineWasmCompiler();
  if (dir === undefined) return wrap(await PGlite.create(undefined, options), () => undefined);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = acquireStoreLock(path.dirname(dir));
  try {
    if (!existsSync(path.join(dir, 'PG_VERSION'))) await initializeStore(dir);
    const db = await PGlite.create(dir, options);
    // Only the store's own folder: its parent may be shared (a temp folder), and new files elsewhere in
    // DATA_DIR are owner-only through the process umask (main.ts).
    await restrictToOwner(dir);
    return wrap(db, () => lock.release());
  } catch (err) {
    lock.release();
    throw err;
  }
}

/**
 * Where the freshly initialised cluster that new stores copy is kept: beside the build, outside every
 * DATA_DIR, one per PGlite version (its files depend on PostgreSQL's version). The same place from the
 * sources (src/adapters/store) and from the build (dist/adapters/store).
 */
function templateDir(): string {
  const pglite = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = JSON.parse(readFileSync(path.join(pglite, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return fileURLToPath(new URL(`../../../dist/store-template/pglite-${pkg.version}`, import.meta.url));
}

/**
 * Makes the store template ({@link templateDir}) unless it exists: initdb once, in a child, into a folder of
 * its own renamed into place when complete (two processes making it at once both succeed; one is kept).
 * The build step calls it (scripts/build-if-changed.mjs), so a first start after it copies files.
 * @returns the template's folder
 */
export async function prepareStoreTemplate(): Promise<string> {
  const template = templateDir();
  if (existsSync(path.join(template, 'PG_VERSION'))) return template;
  await fs.mkdir(path.dirname(template), { recursive: true, mode: 0o700 });
  const building = await fs.mkdtemp(`${template}.tmp-`);
  try {
    await initializeInChild(building);
    await restrictToOwner(building);
    await fs.rename(building, template).catch((err: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(template, 'PG_VERSION'))) throw err; // else: another process made it first
    });
  } finally {
    await fs.rm(building, { recursive: true, force: true });
  }
  return template;
}

/**
 * Sets up a fresh store in `dir`: a copy of the template (files only, no WASM), PG_VERSION last so that
 * a copy cut short is made again at the next start. Where no template can be made (a read-only
 * installation), initdb runs for this store alone.
 */
async function initializeStore(dir: string): Promise<void> {
  const template = await prepareStoreTemplate().catch(() => null);
  if (template === null) return initializeInChild(dir);
  await fs.cp(template, dir, {
    recursive: true,
    force: true,
    filter: (from) => from !== path.join(template, 'PG_VERSION'),
  });
  await fs.copyFile(path.join(template, 'PG_VERSION'), path.join(dir, 'PG_VERSION'));
}

/**
 * Creates a fresh cluster (PostgreSQL's initdb, in WASM) in a child process: initdb grows the heap by
 * several hundred MB, which a process keeps once grown (a worker thread's is not all given back either),
 * while a child's goes away with it. The service then opens the store in a heap of its normal size.
 * Liftoff only there too: initdb runs once, and the optimising compiler cost it a third more CPU.
 */
async function initializeInChild(dir: string): Promise<void> {
  const code = `const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    await (await PGlite.create(process.argv[1], { startParams: JSON.parse(process.argv[2]) })).close();`;
  const child = spawn(
    process.execPath,
    [...WASM_FLAGS, '--input-type=module', '-e', code, dir, JSON.stringify(options.startParams)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (exitCode !== 0) throw new Error(`setting up the embedded store in ${dir} failed: ${stderr.trim()}`);
}

function wrap(db: PGlite, release: () => void): SqlDatabase & { pglite: PGlite } {
  const prepared = new PreparedRows();
  return {
    kind: 'embedded',
    pglite: db,
    query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params, queryOptions)).rows,
    write: async (text, params) => {
      await db.query(text, params, queryOptions);
    },
    writeRows: async (text, rows) => {
      const name = await prepared.prepare(db, text);
      if (name === undefined) await db.query(text, [JSON.stringify(rows)], queryOptions);
      else await db.query(executeRows(name, rows));
    },
    exec: async (text) => {
      await db.exec(text);
    },
    execRows: async <T>(text: string) => (await db.exec(text, queryOptions)).flatMap((r) => r.rows as T[]),
    transaction: (fn) => db.transaction((tx) => fn(txSql(tx, prepared))),
    close: async () => {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}
