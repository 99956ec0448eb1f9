/**
 * The tree of a blinded batch (blinding.ts) built from chunks and stored in parts.
 *
 * Level 0 (each anchor's leaf beside its secret sibling) is never kept: level 1 holds one node per offset
 * of the batch's range, and the stored form is every level from level 1 to the root, 32 bytes a node,
 * level after level. Level j (counting from level 1) of a range of `span` offsets holds ceil(span / 2^j)
 * nodes; node i of level j sits at node number (nodes of the levels below) + i.
 *
 * A batch is built in chunks of {@link CHUNK_NODES} offsets: each chunk's subtree (its level-1 nodes and
 * every level above them up to one node) can be hashed on its own, on another thread, because a chunk is
 * aligned on a power of two; {@link chunkJoiner} lays the chunks' levels side by side and hashes the few
 * levels above them. The stored form is cut into parts of {@link PART_NODES} nodes (one row each), so
 * no statement moves more than a few megabytes.
 */
import { DomainError } from '../errors.js';
import { sha256 } from '../hash/sha256.js';
import { blindedLevelOne } from './blinding.js';
import { levelCounts, NODE_SIZE } from './tree.js';

/** log2 of {@link CHUNK_NODES}. */
const CHUNK_LOG = 16;
/** Offsets (level-1 nodes) per chunk: a power of two, so a chunk's subtree is made of whole tree nodes. */
export const CHUNK_NODES = 1 << CHUNK_LOG;
/** Nodes per stored part (2 MB). */
export const PART_NODES = 1 << 16;

/**
 * Every level from `level` (packed nodes) up to a single node, concatenated, each parent the SHA-256 of its
 * two children (Chainpoint v2 rule), an odd last node moved up unchanged.
 * @throws DomainError INVALID_HASH when the length is not a multiple of 32; BAD_REQUEST when empty
 */
export function levelsAbove(level: Uint8Array): Buffer {
  if (level.length % NODE_SIZE !== 0)
    throw new DomainError('INVALID_HASH', `"level" expected a multiple of ${NODE_SIZE} bytes, got ${level.length}`);
  const counts = levelCounts(level.length / NODE_SIZE);
  const out = Buffer.allocUnsafe(counts.reduce((sum, n) => sum + n, 0) * NODE_SIZE);
  out.set(level, 0);
  for (let k = 1, below = 0; k < counts.length; k++) {
    const at = below + counts[k - 1]! * NODE_SIZE;
    hashLevelInto(out, below, counts[k - 1]!, at);
    below = at;
  }
  return out;
}

/** One chunk of a batch's range: its anchors' leaves and where they sit. */
export interface ChunkJob {
  /** The batch's blinding key. */
  readonly key: Uint8Array;
  /** The anchors' leaves, packed, in offset order. */
  readonly leaves: Uint8Array;
  /** Each anchor's offset in the batch's range, or null when the chunk has no gap. */
  readonly offsets: readonly number[] | null;
  /** The chunk's first offset (a multiple of CHUNK_NODES) and its number of offsets. */
  readonly first: number;
  readonly count: number;
}

/**
 * A chunk's subtree: its level-1 nodes (blinding.ts) and every level above them up to one node.
 * @throws DomainError INVALID_HASH when the leaves, offsets or key do not fit
 */
export function chunkSubtree(job: ChunkJob): Buffer {
  return levelsAbove(blindedLevelOne(job.key, job.leaves, job.offsets, job.first, job.count));
}

/** One stored part: nodes [part × PART_NODES, …) of the stored form. */
export interface TreePart {
  readonly part: number;
  readonly nodes: Buffer;
}

/**
 * Builds the stored form of a batch's tree from its chunks' subtrees, in any order, handing out each part
 * as soon as every node of it is known, so the whole stored form is never held at once.
 */
export interface ChunkJoiner {
  /**
   * Places chunk c's subtree ({@link chunkSubtree}): the parts it completed (a part may be a view on the
   * subtree, which must then be left unchanged until the part is written).
   */
  add(c: number, subtree: Uint8Array): TreePart[];
  /**
   * Hashes the levels above the chunks: the parts not yet handed out, and the root.
   * @throws DomainError BAD_REQUEST when a chunk is missing
   */
  finish(): { parts: TreePart[]; root: Buffer };
}

/**
 * A {@link ChunkJoiner} for the tree over `span` level-1 nodes; chunk c covers level-1 nodes
 * [c × CHUNK_NODES, …). A part's buffer is allocated at its first node and handed out at its last: with the
 * chunks added in order, a part of each level is open at a time (a few parts, not the whole tree).
 */
export function chunkJoiner(span: number): ChunkJoiner {
  const counts = levelCounts(span);
  const starts = counts.map((_, k) => counts.slice(0, k).reduce((sum, n) => sum + n, 0) * NODE_SIZE);
  const parts = partWriter(counts.reduce((sum, n) => sum + n, 0) * NODE_SIZE);
  const chunks = Math.ceil(span / CHUNK_NODES);
  // Each chunk's root: the level the joiner hashes on from (level CHUNK_LOG, or the root of a single chunk).
  const tops = Buffer.alloc(chunks * NODE_SIZE);
  const added = new Set<number>();
  return {
    add(c, subtree) {
      const ready: TreePart[] = [];
      for (let k = 0; k < counts.length && k <= CHUNK_LOG; k++) {
        const { at, bytes } = chunkLevel(k, subtree, c, span);
        ready.push(...parts.write(starts[k]! + at, bytes));
      }
      tops.set(subtree.subarray(subtree.length - NODE_SIZE), c * NODE_SIZE);
      added.add(c);
      return ready;
    },
    finish() {
      if (added.size !== chunks)
        throw new DomainError('BAD_REQUEST', `${added.size} chunks do not cover ${span} nodes`);
      const above = levelsAbove(tops);
      const ready =
        counts.length > CHUNK_LOG + 1 ? parts.write(starts[CHUNK_LOG + 1]!, above.subarray(tops.length)) : [];
      const open = parts.open();
      if (open !== null) throw new DomainError('BAD_REQUEST', `part ${open} of the tree is incomplete`);
      return { parts: ready, root: Buffer.from(above.subarray(above.length - NODE_SIZE)) };
    },
  };
}

/** Parts of PART_NODES nodes over a stored form of `total` bytes, each handed out once all its bytes are written. */
function partWriter(total: number) {
  const size = PART_NODES * NODE_SIZE;
  const open = new Map<number, { nodes: Buffer; filled: number }>();
  const partSize = (p: number) => Math.min(size, total - p * size);
  const partBuffer = (p: number) => {
    let entry = open.get(p);
    if (!entry) open.set(p, (entry = { nodes: Buffer.allocUnsafe(partSize(p)), filled: 0 }));
    return entry;
  };
  return {
    /** Copies `bytes` to byte `at` of the stored form: the parts that are now whole. */
    write(at: number, bytes: Uint8Array): TreePart[] {
      const ready: TreePart[] = [];
      for (let done = 0; done < bytes.length;) {
        const p = Math.floor((at + done) / size);
        const entry = partBuffer(p);
        const into = at + done - p * size;
        const n = Math.min(bytes.length - done, entry.nodes.length - into);
        entry.nodes.set(bytes.subarray(done, done + n), into);
        entry.filled += n;
        done += n;
        if (entry.filled === entry.nodes.length) {
          open.delete(p);
          ready.push({ part: p, nodes: entry.nodes });
        }
      }
      return ready;
    },
    /** A part some node of which is still to be written, or null. */
    open: (): number | null => open.keys().next().value ?? null,
  };
}

/**
 * Chunk c's nodes of level k (0: level 1). A chunk shorter than the others (the last) reaches a single node
 * below level CHUNK_LOG: that node moves up unchanged.
 */
function chunkLevel(k: number, chunk: Uint8Array, c: number, span: number): { at: number; bytes: Uint8Array } {
  const size = Math.min(CHUNK_NODES, span - c * CHUNK_NODES);
  const own = levelCounts(size);
  const level = Math.min(k, own.length - 1);
  const start = own.slice(0, level).reduce((sum, n) => sum + n, 0) * NODE_SIZE;
  if (chunk.length !== own.reduce((sum, n) => sum + n, 0) * NODE_SIZE)
    throw new DomainError('BAD_REQUEST', `chunk ${c} has ${chunk.length} bytes, not the levels of ${size} nodes`);
  return { at: ((c * CHUNK_NODES) >> k) * NODE_SIZE, bytes: chunk.subarray(start, start + own[level]! * NODE_SIZE) };
}

/** Writes the parents of the `count` nodes at byte `from` of `buf` at byte `to` (Chainpoint v2 rule). */
function hashLevelInto(buf: Buffer, from: number, count: number, to: number): void {
  const pairs = Math.floor(count / 2);
  for (let i = 0; i < pairs; i++) {
    const left = from + i * 2 * NODE_SIZE;
    buf.set(sha256(buf.subarray(left, left + 2 * NODE_SIZE)), to + i * NODE_SIZE);
  }
  if (count % 2 === 1) buf.copy(buf, to + pairs * NODE_SIZE, from + (count - 1) * NODE_SIZE, from + count * NODE_SIZE);
}
