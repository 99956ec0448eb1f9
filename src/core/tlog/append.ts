/**
 * Appending to a tiled log: the new leaf hashes go into level 0's rightmost tile; each tile that fills up
 * gives its subtree's root to the level above (level 8·(L+1) of the tree). Only the right edge (the partial
 * tile of each level) is needed to append and to compute the new root, so a sequencer reads a few tiles,
 * never the log.
 */
import { DomainError } from '../errors.js';
import { HASH_SIZE, nodeHash, treeHash } from './rfc6962.js';
import { storedCount, subtreeFromStored, TILE_WIDTH } from './tiles.js';

export interface TileContent {
  readonly level: number;
  readonly index: number;
  /** The tile's hashes, packed (32 bytes each, 1 … 256 of them). */
  readonly hashes: Buffer;
}

/** The partial tile of each level of a tree of `size` leaves (levels whose hash count is a multiple of 256 have none). */
export interface TileEdge {
  readonly size: number;
  /** Level → that level's partial tile's hashes, packed. */
  readonly partial: ReadonlyMap<number, Buffer>;
}

/** The levels of a tree of `size` leaves that have a partial tile, with the index and width of each. */
export function edgeTiles(size: number): Array<{ level: number; index: number; width: number }> {
  const out = [];
  for (let level = 0; storedCount(level, size) > 0; level++) {
    const count = storedCount(level, size);
    if (count % TILE_WIDTH !== 0) out.push({ level, index: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return out;
}

/** The root of a full tile's 256 hashes (a complete subtree of height 8). */
function fullTileRoot(hashes: Buffer): Buffer {
  let level: Buffer[] = [];
  for (let i = 0; i < TILE_WIDTH; i++) level.push(hashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  while (level.length > 1) {
    const up: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(nodeHash(level[i]!, level[i + 1]!));
    level = up;
  }
  return level[0]!;
}

/**
 * Appends leaf hashes: the new edge and every tile changed (each with its final content: a tile filled up
 * is given whole, the new right edge partial).
 * @throws DomainError VALIDATION_FAILED when the edge does not fit its size
 */
export function appendLeaves(edge: TileEdge, leafHashes: readonly Buffer[]): { edge: TileEdge; tiles: TileContent[] } {
  for (const t of edgeTiles(edge.size)) {
    if (edge.partial.get(t.level)?.length !== t.width * HASH_SIZE)
      throw new DomainError('VALIDATION_FAILED', `the log's tile ${t.level}/${t.index} is not ${t.width} hashes wide`);
  }
  const parts = new Map<number, Buffer[]>();
  for (const [level, hashes] of edge.partial) parts.set(level, [hashes]);
  const touched = new Map<string, TileContent>();
  const changed = new Set<number>();
  let size = edge.size;
  const push = (level: number, hash: Buffer, count: number): void => {
    const list = parts.get(level) ?? [];
    list.push(hash);
    parts.set(level, list);
    changed.add(level);
    const index = Math.floor(count / TILE_WIDTH);
    if ((count + 1) % TILE_WIDTH !== 0) return;
    const whole = Buffer.concat(list);
    touched.set(`${level}/${index}`, { level, index, hashes: whole });
    parts.delete(level);
    push(level + 1, fullTileRoot(whole), storedCount(level + 1, size + 1) - 1);
  };
  for (const h of leafHashes) {
    if (h.length !== HASH_SIZE) throw new DomainError('VALIDATION_FAILED', 'a leaf hash is 32 bytes');
    push(0, h, size);
    size++;
  }
  const partial = new Map<number, Buffer>();
  for (const [level, list] of parts) {
    const hashes = Buffer.concat(list);
    partial.set(level, hashes);
    const index = Math.floor(storedCount(level, size) / TILE_WIDTH);
    if (changed.has(level)) touched.set(`${level}/${index}`, { level, index, hashes });
  }
  return { edge: { size, partial }, tiles: [...touched.values()] };
}

/** The root hash of the tree whose right edge is `edge` (every hash it needs is on the edge). */
export function edgeRoot(edge: TileEdge): Buffer {
  return treeHash(
    subtreeFromStored((level, i) => {
      const first = Math.floor(storedCount(level, edge.size) / TILE_WIDTH) * TILE_WIDTH;
      const hashes = edge.partial.get(level);
      const at = (i - first) * HASH_SIZE;
      if (!hashes || at < 0 || at + HASH_SIZE > hashes.length)
        throw new DomainError('VALIDATION_FAILED', `hash ${level}/${i} is not on the log's edge`);
      return hashes.subarray(at, at + HASH_SIZE);
    }),
    edge.size,
  );
}
