/**
 * `proofseal log …`: the transparency log seen from outside (docs/transparency-log.md).
 * - `log verify --log-url URL [--vkey KEY] [--checkpoint FILE] [--save FILE]`: the checkpoint's signature,
 *   the served tiles against its root, and its consistency with a checkpoint kept earlier.
 * - `log monitor --log-url URL (--key ADDRESS | --identity TEXT) [--vkey KEY] [--state FILE]`: every entry, read
 *   from the entry bundles and checked to make the signed root, and those made under the key or identity listed;
 *   with `--state`, only the entries after the checkpoint kept there (the log checked to extend it), the new
 *   checkpoint kept there after.
 * - `log key`: the verifier key, from the service's own store (an operator command: operator-runtime.ts).
 * Without `--vkey`, the key the service serves at /log/key is used, and the output says so: pin it.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { appendLeaves, edgeRoot, edgeTiles, type TileEdge } from '../core/tlog/append.js';
import { openCheckpoint, parseVerifierKey, type Checkpoint, type Verifier } from '../core/tlog/checkpoint.js';
import { decodeEntry, entryHasIdentity, entryHasKey, type LogEntry } from '../core/tlog/entry.js';
import { consistencyProof, HASH_SIZE, leafHash, treeHash, verifyConsistency } from '../core/tlog/rfc6962.js';
import { tilePath, TILE_WIDTH, unpackBundle, withStoredHashes } from '../core/tlog/tiles.js';
import { DomainError } from '../core/errors.js';
import { parse, required, UsageError } from './args.js';
import { loadLogKey } from '../app/transparency/log-key.js';
import type { AppDeps } from '../app/shared/deps.js';

type Out = (line: string) => void;
/** GET of a log file: its bytes, or null on 404. */
export type FetchLogFile = (url: string) => Promise<Buffer | null>;

export const LOG_USAGE = `usage: proofseal log verify --log-url URL [--vkey KEY] [--checkpoint FILE] [--save FILE]
       proofseal log monitor --log-url URL (--key ADDRESS | --identity TEXT) [--vkey KEY] [--state FILE] [--json]
       proofseal log key`;

const bad = (message: string): never => {
  throw new DomainError('VALIDATION_FAILED', message);
};

/** `log verify` and `log monitor` (`log key` is the operator command {@link logKeyCommand}). */
export async function logCommand(args: string[], deps: { fetch: FetchLogFile; out: Out }): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, {
    'log-url': { type: 'string' },
    vkey: { type: 'string' },
    checkpoint: { type: 'string' },
    save: { type: 'string' },
    key: { type: 'string' },
    identity: { type: 'string' },
    json: { type: 'boolean' },
    state: { type: 'string' },
  });
  if (positionals.length > 0 || (sub !== 'verify' && sub !== 'monitor')) throw new UsageError(LOG_USAGE);
  const base = required(values, 'log-url').replace(/\/+$/, '');
  const get = async (path: string) => (await deps.fetch(`${base}/${path}`)) ?? bad(`${base}/${path} is not served`);
  const verifier = await verifierOf(values.vkey as string | undefined, get, deps.out);
  const note = (await get('checkpoint')).toString('utf8');
  const checkpoint = openCheckpoint(note, verifier);
  const readTile = async (level: number, index: number, width: number) => get(tilePath(level, index, width));
  if (sub === 'verify') return verify({ checkpoint, note, verifier, readTile, values, out: deps.out });
  return monitor({ checkpoint, note, verifier, get, readTile, values, out: deps.out });
}

async function verifierOf(given: string | undefined, get: (p: string) => Promise<Buffer>, out: Out): Promise<Verifier> {
  if (given !== undefined) return parseVerifierKey(given);
  const served = (await get('key')).toString('utf8').trim();
  out(`verifier key (as served; pin it with --vkey): ${served}`);
  return parseVerifierKey(served);
}

async function verify(o: {
  checkpoint: Checkpoint;
  note: string;
  verifier: Verifier;
  readTile: (level: number, index: number, width: number) => Promise<Buffer>;
  values: Record<string, string | boolean | undefined>;
  out: Out;
}): Promise<void> {
  const { checkpoint: c, out } = o;
  const root = await withStoredHashes(c.size, (hashAt) => treeHash(hashAt, c.size), o.readTile);
  if (!root.equals(c.root)) bad(`the served tiles do not make the root of checkpoint ${c.size}`);
  out(`checkpoint ${c.size} (${c.origin}): signature verified, tiles match its root ${c.root.toString('base64')}`);
  const keptFile = o.values.checkpoint as string | undefined;
  if (keptFile !== undefined) {
    const kept = openCheckpoint(await readFile(keptFile, 'utf8'), o.verifier);
    if (kept.size > c.size)
      bad(`the kept checkpoint (${kept.size}) is larger than the served one (${c.size}): a rollback`);
    const proof = await withStoredHashes(c.size, (h) => consistencyProof(h, kept.size, c.size), o.readTile);
    if (!verifyConsistency(kept.size, c.size, proof, kept.root, c.root))
      bad(
        `checkpoint ${c.size} is NOT consistent with the kept checkpoint ${kept.size}: the log was forked or rewritten`,
      );
    out(`consistent with the kept checkpoint ${kept.size}`);
  }
  const save = o.values.save as string | undefined;
  if (save !== undefined) {
    await writeFile(save, o.note);
    out(`checkpoint kept in ${save}`);
  }
}

async function monitor(o: {
  checkpoint: Checkpoint;
  note: string;
  verifier: Verifier;
  get: (path: string) => Promise<Buffer>;
  readTile: (level: number, index: number, width: number) => Promise<Buffer>;
  values: Record<string, string | boolean | undefined>;
  out: Out;
}): Promise<void> {
  const key = o.values.key as string | undefined;
  const identity = o.values.identity as string | undefined;
  if ((key === undefined) === (identity === undefined)) throw new UsageError('give --key or --identity (one of them)');
  const c = o.checkpoint;
  const stateFile = o.values.state as string | undefined;
  const kept = stateFile === undefined ? null : await keptCheckpoint(stateFile, o.verifier);
  if (kept !== null && kept.size > c.size)
    bad(`the kept checkpoint (${kept.size}) is larger than the served one (${c.size}): a rollback`);
  let edge = kept === null ? { size: 0, partial: new Map<number, Buffer>() } : await edgeOf(kept, o.readTile);
  const from = edge.size;
  const found: Array<{ index: number; entry: LogEntry }> = [];
  for (let n = Math.floor(from / TILE_WIDTH); n * TILE_WIDTH < c.size; n++) {
    const width = Math.min(TILE_WIDTH, c.size - n * TILE_WIDTH);
    const all = unpackBundle(await o.get(tilePath('entries', n, width)), width);
    if (all.length !== width) bad(`entry bundle ${n} holds ${all.length} entries, not ${width}`);
    const skip = Math.max(0, from - n * TILE_WIDTH);
    const entries = all.slice(skip);
    edge = appendLeaves(edge, entries.map(leafHash)).edge;
    entries.forEach((bytes, i) => {
      const entry = decodeEntry(bytes);
      const hit = key !== undefined ? entryHasKey(entry, key) : entryHasIdentity(entry, identity!);
      if (hit) found.push({ index: n * TILE_WIDTH + skip + i, entry });
    });
  }
  // Every entry read, hashed again here (after the kept tree's edge, itself checked to make the kept root), makes
  // the signed root: none was left out or changed, and the log extends the kept checkpoint.
  if (!edgeRoot(edge).equals(c.root))
    bad(
      kept === null
        ? `the entries served do not make the root of checkpoint ${c.size}`
        : `checkpoint ${c.size} does not extend the kept checkpoint ${kept.size}: the log was forked or rewritten`,
    );
  if (stateFile !== undefined) await keepCheckpoint(stateFile, o.note);
  if (o.values.json === true) return o.out(JSON.stringify({ from, size: c.size, entries: found }, null, 2));
  const under = `${found.length} under ${key ?? identity}`;
  if (kept === null) o.out(`${c.size} entries read and checked against checkpoint ${c.size}; ${under}:`);
  else if (from === c.size) o.out(`no entry since the kept checkpoint ${from} (the served one, signed); ${under}`);
  else
    o.out(
      `entries ${from} to ${c.size - 1} read (after the kept checkpoint ${from}) and checked against checkpoint ${c.size}; ${under}:`,
    );
  for (const { index, entry } of found) o.out(`  ${index}  ${describe(entry)}`);
  if (stateFile !== undefined) o.out(`checkpoint ${c.size} kept in ${stateFile}`);
}

/** The checkpoint kept in a monitor's state file, opened with the log's key; null when the file is not there yet. */
async function keptCheckpoint(file: string, verifier: Verifier): Promise<Checkpoint | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw stateFileError(file, err);
  }
  return openCheckpoint(text, verifier);
}

/** Writes the checkpoint beside the file and renames it over: a run stopped mid-way leaves the old one whole. */
async function keepCheckpoint(file: string, note: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, note);
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw stateFileError(file, err);
  }
}

/** What the operator is told when the state file can be neither read nor written (exit code 2, not a stack). */
function stateFileError(file: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR')
    return new UsageError(`--state ${file} is a directory: give the path of a file (made on the first run)`);
  return new UsageError(`--state ${file}: ${(err as Error).message}`);
}

/** The right edge of the kept tree, from the served tiles, checked to make the kept checkpoint's root. */
async function edgeOf(
  kept: Checkpoint,
  readTile: (level: number, index: number, width: number) => Promise<Buffer>,
): Promise<TileEdge> {
  const partial = new Map<number, Buffer>();
  for (const t of edgeTiles(kept.size)) {
    const hashes = await readTile(t.level, t.index, t.width);
    if (hashes.length !== t.width * HASH_SIZE) bad(`tile ${t.level}/${t.index} is not ${t.width} hashes wide`);
    partial.set(t.level, hashes);
  }
  const edge = { size: kept.size, partial };
  if (kept.size > 0 && !edgeRoot(edge).equals(kept.root))
    bad(`the served tiles do not make the root of the kept checkpoint ${kept.size}: the log was forked or rewritten`);
  return edge;
}

function describe(e: LogEntry): string {
  if (e.type === 'anchor')
    return `${new Date(e.created).toISOString()}  ${e.kind} anchor ${e.id}${e.leaf ? `  leaf ${e.leaf}` : ''}`;
  if (e.type === 'signer-event')
    return `${new Date(e.time).toISOString()}  ${e.event} request ${e.request}${e.signer ? ` signer ${e.signer}` : ''}`;
  return `checkpoint ${e.size} sealed by anchor ${e.anchor}`;
}

/** `proofseal log key`: the checkpoints' verifier key (made on first use), from the service's store. */
export async function logKeyCommand(deps: AppDeps, args: string[], out: Out): Promise<void> {
  if (args[0] !== 'key' || args.length > 1) throw new UsageError(LOG_USAGE);
  if (!deps.transparency) return bad('the transparency log is not configured');
  out((await loadLogKey({ ...deps, transparency: deps.transparency })).verifierKey);
}
