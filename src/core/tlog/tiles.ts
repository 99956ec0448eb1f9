/**
 * The tiled layout of C2SP tlog-tiles: the hashes of level 8·L of the tree (level 0 the leaf hashes) are cut
 * into tiles of 256, tile L/N holding hashes N·256 … N·256 + 255 of that level; the rightmost tile of a level
 * may be partial (width W < 256, path suffix `.p/W`). Entry bundles `tile/entries/N` hold the entries of
 * leaves N·256 …, each as a big-endian uint16 length and its bytes. Pure: the reading is done by the caller.
 */
import { DomainError } from '../errors.js';
import { HASH_SIZE, nodeHash, type SubtreeHash } from './rfc6962.js';

/** Tree levels per tile level (C2SP tlog-tiles fixes 8). */
export const TILE_HEIGHT = 8;
/** Hashes (or entries) in a full tile (or bundle). */
export const TILE_WIDTH = 256;
/** The largest entry an entry bundle can carry (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

/** `N` of a tile path: groups of three digits, each but the last prefixed with `x` (1234067 → x001/x234/067). */
export function tileIndexPath(n: number): string {
  let digits = String(n);
  while (digits.length % 3 !== 0) digits = '0' + digits;
  const groups = digits.match(/\d{3}/g)!;
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** The path of a tile (`level` a number, or `entries` for an entry bundle) of width `width` (256: full). */
export function tilePath(level: number | 'entries', index: number, width: number): string {
  const partial = width < TILE_WIDTH ? `.p/${width}` : '';
  return `tile/${level}/${tileIndexPath(index)}${partial}`;
}

export interface TileRef {
  readonly level: number | 'entries';
  readonly index: number;
  /** 1 … 256; 256 for a full tile. */
  readonly width: number;
}

/**
 * The tile a path names (`tile/L/N[.p/W]` or `tile/entries/N[.p/W]`, without the leading `/log/`), or null
 * when the path is not one in its canonical form (no leading zeros outside the groups, W in 1 … 255).
 */
export function parseTilePath(path: string): TileRef | null {
  const m = /^tile\/(entries|\d{1,2})\/((?:x\d{3}\/)*\d{3})(?:\.p\/(\d{1,3}))?$/.exec(path);
  if (!m) return null;
  const level = m[1] === 'entries' ? 'entries' : Number(m[1]);
  if (level !== 'entries' && (String(level) !== m[1] || level > 63)) return null;
  const index = Number(m[2]!.replace(/x|\//g, ''));
  if (!Number.isSafeInteger(index) || tileIndexPath(index) !== m[2]) return null;
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (m[3] !== undefined && (String(width) !== m[3] || width < 1 || width >= TILE_WIDTH)) return null;
  return { level, index, width };
}

/** How many hashes tile level `level` holds in a tree of `size` leaves: floor(size / 256^level). */
export function storedCount(level: number, size: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/**
 * The tiles (full, and the partial right edge when there is one) of a tree of `size` leaves at `level`
 * (a number, or `entries`).
 */
export function tilesOf(level: number | 'entries', size: number): TileRef[] {
  const count = storedCount(level === 'entries' ? 0 : level, size);
  const out: TileRef[] = [];
  for (let n = 0; n * TILE_WIDTH < count; n++)
    out.push({ level, index: n, width: Math.min(TILE_WIDTH, count - n * TILE_WIDTH) });
  return out;
}

/**
 * A stored hash: hash number `index` of tree level 8·`tileLevel`, 32 bytes. Stored hashes are those of
 * complete subtrees only, which never change once the tree holds them.
 */
export type StoredHash = (tileLevel: number, index: number) => Buffer;

/** Any complete subtree's hash from the stored levels: level 8q + r is made of 2^r hashes of level 8q. */
export function subtreeFromStored(stored: StoredHash): SubtreeHash {
  return (level, index) => {
    const q = Math.floor(level / TILE_HEIGHT);
    const r = level % TILE_HEIGHT;
    const first = index * 2 ** r;
    const reduce = (from: number, width: number): Buffer =>
      width === 1 ? stored(q, from) : nodeHash(reduce(from, width / 2), reduce(from + width / 2, width / 2));
    return reduce(first, 2 ** r);
  };
}

/**
 * The stored hashes that `compute` reads through {@link subtreeFromStored}, found by running it once on
 * placeholders: a proof is made by reading these (from tiles or rows), then running it again.
 */
export function storedHashesRead(compute: (hashAt: SubtreeHash) => unknown): Array<[number, number]> {
  const seen = new Map<string, [number, number]>();
  const zero = Buffer.alloc(HASH_SIZE);
  compute(
    subtreeFromStored((q, i) => {
      seen.set(`${q}/${i}`, [q, i]);
      return zero;
    }),
  );
  return [...seen.values()];
}

/** Entries packed as an entry bundle: each a big-endian uint16 length, then its bytes. */
export function packBundle(entries: readonly Uint8Array[]): Buffer {
  let total = 0;
  for (const e of entries) {
    if (e.length > MAX_ENTRY_BYTES)
      throw new DomainError('VALIDATION_FAILED', `a log entry is ${e.length} bytes, over ${MAX_ENTRY_BYTES}`);
    total += 2 + e.length;
  }
  // One buffer, written in place: a sequencer packs thousands of entries a run.
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const e of entries) {
    out.writeUInt16BE(e.length, at);
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/**
 * The entries of a bundle, the first `max` of them at most.
 * @throws DomainError VALIDATION_FAILED when the bundle is cut short
 */
export function unpackBundle(bundle: Uint8Array, max = Infinity): Buffer[] {
  const buf = Buffer.from(bundle.buffer, bundle.byteOffset, bundle.length);
  const out: Buffer[] = [];
  let at = 0;
  while (at < buf.length && out.length < max) {
    if (at + 2 > buf.length) throw new DomainError('VALIDATION_FAILED', 'an entry bundle ends inside a length');
    const len = buf.readUInt16BE(at);
    if (at + 2 + len > buf.length) throw new DomainError('VALIDATION_FAILED', 'an entry bundle ends inside an entry');
    out.push(buf.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}

/**
 * Runs `compute` (a proof, a tree hash) over the stored hashes of a tree of `size` leaves, reading each tile
 * it needs once through `readTile` (from the store, or fetched from a server: a client then checks what it
 * computed against a signed root, so tiles it was lied to with fail the check).
 * @throws DomainError VALIDATION_FAILED when a tile read is shorter than its width
 */
export async function withStoredHashes<T>(
  size: number,
  compute: (hashAt: SubtreeHash) => T,
  readTile: (level: number, index: number, width: number) => Promise<Buffer>,
): Promise<T> {
  const tiles = new Map<string, Buffer>();
  for (const [q, i] of storedHashesRead(compute)) {
    const n = Math.floor(i / TILE_WIDTH);
    const key = `${q}/${n}`;
    if (tiles.has(key)) continue;
    const width = Math.min(TILE_WIDTH, storedCount(q, size) - n * TILE_WIDTH);
    const tile = await readTile(q, n, width);
    if (tile.length < width * HASH_SIZE)
      throw new DomainError('VALIDATION_FAILED', `tile ${q}/${n} holds fewer than ${width} hashes`);
    tiles.set(key, tile);
  }
  return compute(
    subtreeFromStored((q, i) => {
      const at = (i % TILE_WIDTH) * HASH_SIZE;
      return tiles.get(`${q}/${Math.floor(i / TILE_WIDTH)}`)!.subarray(at, at + HASH_SIZE);
    }),
  );
}
