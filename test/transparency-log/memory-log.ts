/** A tiled log held in memory, built with the core's appender: what the tests prove against. */
import { appendLeaves, edgeRoot, type TileEdge } from '../../src/core/tlog/append.js';
import { HASH_SIZE, leafHash, type SubtreeHash } from '../../src/core/tlog/rfc6962.js';
import { subtreeFromStored, TILE_WIDTH } from '../../src/core/tlog/tiles.js';

export class MemoryLog {
  readonly tiles = new Map<string, Buffer>();
  readonly entries: Buffer[] = [];
  edge: TileEdge = { size: 0, partial: new Map() };

  append(entries: readonly Buffer[]): void {
    const { edge, tiles } = appendLeaves(this.edge, entries.map(leafHash));
    for (const t of tiles) this.tiles.set(`${t.level}/${t.index}`, t.hashes);
    this.entries.push(...entries);
    this.edge = edge;
  }

  get size(): number {
    return this.edge.size;
  }

  root(): Buffer {
    return edgeRoot(this.edge);
  }

  /** Subtree hashes read from the tiles, as a server holding only them would. */
  hashAt(): SubtreeHash {
    return subtreeFromStored((level, i) => {
      const tile = this.tiles.get(`${level}/${Math.floor(i / TILE_WIDTH)}`);
      const at = (i % TILE_WIDTH) * HASH_SIZE;
      if (!tile || tile.length < at + HASH_SIZE) throw new Error(`no stored hash ${level}/${i}`);
      return tile.subarray(at, at + HASH_SIZE);
    });
  }
}
