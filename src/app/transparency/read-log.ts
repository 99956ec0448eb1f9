import { fail } from '../../core/errors.js';
import { HASH_SIZE, inclusionProof } from '../../core/tlog/rfc6962.js';
import { packBundle, parseTilePath, TILE_WIDTH, unpackBundle, withStoredHashes } from '../../core/tlog/tiles.js';
import type { LogInclusion } from '../../core/tlog/bundle-proofs.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { loadLogKey } from './log-key.js';
import type { Bundle } from './tlog.port.js';
import type { TransparencyDeps } from './transparency.port.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'> & { readonly transparency: TransparencyDeps };

export interface LogFile {
  readonly body: Buffer;
  readonly contentType: 'text/plain; charset=utf-8' | 'application/octet-stream';
  /** A full tile or bundle never changes; the checkpoint and partial tiles do (a partial tile's bytes never do either). */
  readonly immutable: boolean;
}

const text = (s: string, immutable = false): LogFile => ({
  body: Buffer.from(s, 'utf8'),
  contentType: 'text/plain; charset=utf-8',
  immutable,
});

/**
 * A file of the log under `/log/`: `checkpoint`, `key` (the verifier key), a tile `tile/L/N[.p/W]` or an entry
 * bundle `tile/entries/N[.p/W]` (C2SP tlog-tiles). A partial tile is served while the tile holds at least W
 * hashes (its first W, which never change).
 * @throws DomainError NOT_FOUND for any other path, a tile not yet written or a checkpoint not yet signed
 */
export async function readLogFile(deps: Deps, path: string): Promise<LogFile> {
  if (path === 'key') return text(`${(await loadLogKey(deps)).verifierKey}\n`);
  if (path === 'checkpoint') {
    const c = await deps.store.tlog.checkpoint();
    return c ? text(c.note) : fail('NOT_FOUND', 'the log has no checkpoint yet');
  }
  const ref = parseTilePath(path);
  if (!ref) return fail('NOT_FOUND', `no log file ${path}`);
  const immutable = ref.width === TILE_WIDTH;
  if (ref.level === 'entries') {
    const b = await deps.store.tlog.bundle(ref.index);
    if (!b || b.count < ref.width) return fail('NOT_FOUND', `no entry bundle ${path}`);
    const body = b.count === ref.width ? b.entries : packBundle(unpackBundle(b.entries, ref.width));
    return { body, contentType: 'application/octet-stream', immutable };
  }
  const hashes = await deps.store.tlog.tile(ref.level, ref.index);
  if (!hashes || hashes.length < ref.width * HASH_SIZE) return fail('NOT_FOUND', `no tile ${path}`);
  return { body: hashes.subarray(0, ref.width * HASH_SIZE), contentType: 'application/octet-stream', immutable };
}

export interface InclusionProof {
  /** The entry's index in the log. */
  readonly index: number;
  /** The entry's bytes, base64. */
  readonly entry: string;
  /** The proof's hashes, base64, leaf to root (RFC 6962 PATH). */
  readonly proof: string[];
  /** The signed checkpoint the proof leads to (its size and root). */
  readonly checkpoint: string;
}

/**
 * The inclusion proof of an anchor's entry in the newest checkpoint.
 * @throws DomainError NOT_FOUND when no entry has that ref, or not yet (the sequencer runs every few seconds)
 */
export async function proveInclusion(
  deps: Pick<AppDeps, 'store'>,
  input: { anchorId: string },
): Promise<InclusionProof> {
  const store = deps.store;
  const index = await store.tlog.indexOf(input.anchorId);
  const c = await store.tlog.checkpoint();
  if (index === null || c === null || index >= c.size)
    return fail('NOT_FOUND', 'no such entry in the transparency log (a new anchor is added within seconds)');
  const proof = await withStoredHashes(c.size, (hashAt) => inclusionProof(hashAt, index, c.size), tileReader(store));
  return {
    index,
    entry: (await entryAt(store, index)).toString('base64'),
    proof: proof.map((h) => h.toString('base64')),
    checkpoint: c.note,
  };
}

/**
 * The inclusion proofs of several anchors' entries, and of other entries given by index (a request's signing
 * events), all in one checkpoint (what a proof bundle carries): the oldest that holds every one of them that is
 * logged — pinned, so a bundle made again once they are all logged is the same bytes however far the log has
 * grown. Null for an anchor not logged yet (or none given); an entry by index the newest checkpoint does not hold
 * yet, or that names an anchor which is not one of `anchorIds` proven here, is left out of `entries` (a SIGNED
 * event is proven only beside its signature's anchor). Null as a whole when the log has no checkpoint.
 */
export async function proveInclusions(
  deps: Pick<AppDeps, 'store'>,
  input: {
    anchorIds: readonly (string | null)[];
    entries?: readonly { readonly index: number; readonly anchorId: string | null }[];
  },
): Promise<{ checkpoint: string; proofs: (LogInclusion | null)[]; entries: LogInclusion[] } | null> {
  const store = deps.store;
  const newest = await store.tlog.checkpoint();
  if (newest === null) return null;
  // An index the newest checkpoint does not hold yet (its run has not committed a checkpoint) is not logged.
  const held = (index: number | null) => (index !== null && index < newest.size ? index : null);
  const indexes = await Promise.all(
    input.anchorIds.map(async (id) => held(id === null ? null : await store.tlog.indexOf(id))),
  );
  const proven = new Set(input.anchorIds.filter((id, i) => id !== null && indexes[i] !== null));
  const others = (input.entries ?? [])
    .filter((e) => held(e.index) !== null && (e.anchorId === null || proven.has(e.anchorId)))
    .map((e) => e.index);
  const logged = [...indexes.filter((i): i is number => i !== null), ...others];
  if (logged.length === 0) return { checkpoint: newest.note, proofs: indexes.map(() => null), entries: [] };
  const c = (await store.tlog.checkpointCovering(Math.max(...logged) + 1)) ?? newest;
  // The bundle's entries are near one another: each tile and entry bundle is read once for all of them.
  const tiles = new Map<string, Promise<Buffer>>();
  const readTile = tileReader(store);
  const cachedTile = (level: number, index: number) => {
    const key = `${level}/${index}`;
    if (!tiles.has(key)) tiles.set(key, readTile(level, index));
    return tiles.get(key)!;
  };
  const bundles = new Map<number, Promise<Bundle | null>>();
  const cachedBundle = (n: number) => {
    if (!bundles.has(n)) bundles.set(n, store.tlog.bundle(n));
    return bundles.get(n)!;
  };
  const prove = async (index: number): Promise<LogInclusion> => {
    const proof = await withStoredHashes(c.size, (hashAt) => inclusionProof(hashAt, index, c.size), cachedTile);
    return {
      index,
      entry: (await entryAt(store, index, cachedBundle)).toString('base64'),
      proof: proof.map((h) => h.toString('base64')),
    };
  };
  const proofs: (LogInclusion | null)[] = [];
  for (const index of indexes) proofs.push(index === null ? null : await prove(index));
  const entries: LogInclusion[] = [];
  for (const index of others) entries.push(await prove(index));
  return { checkpoint: c.note, proofs, entries };
}

function tileReader(store: Store) {
  return async (level: number, index: number): Promise<Buffer> =>
    (await store.tlog.tile(level, index)) ?? fail('NOT_FOUND', `no tile ${level}/${index}`);
}

async function entryAt(
  store: Store,
  index: number,
  readBundle: (n: number) => Promise<Bundle | null> = (n) => store.tlog.bundle(n),
): Promise<Buffer> {
  const b = await readBundle(Math.floor(index / TILE_WIDTH));
  const entry = b && unpackBundle(b.entries, (index % TILE_WIDTH) + 1)[index % TILE_WIDTH];
  return entry ?? fail('NOT_FOUND', `no entry ${index}`);
}
