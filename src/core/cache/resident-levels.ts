import { levelCounts, NODE_SIZE } from '../merkle/tree.js';

/**
 * The stored levels of batch trees kept in memory under a byte budget, so that an anchor's receipt path is
 * read from memory instead of the store once one anchor of its batch was asked. A batch's stored form is its
 * levels from level 1 to the root, level after level (core/merkle/batch-tree.ts); what is kept of a batch is
 * a suffix of it — its upper levels from some level up — because the upper levels are small and on every
 * path, while the lowest hold half the nodes. When the budget is full, room is made by dropping the lowest
 * kept level of the batch keeping the most (a halving), so the batches asked for end up keeping about the
 * same levels; a batch whose levels can no longer be shortened is dropped least recently used first.
 * Nothing here changes once stored: a batch's tree is written once, when it is closed.
 */
export class ResidentLevels {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Map<string, Promise<void>>();
  private tail: Promise<void> = Promise.resolve();
  private total = 0;

  /** @param budgetBytes - the bound on the bytes of nodes kept (0: keep nothing) */
  constructor(readonly budgetBytes: number) {}

  /** Node `g` of the batch's stored form, when kept. */
  node(batchId: string, g: number): Buffer | undefined {
    const e = this.entries.get(batchId);
    if (e === undefined || g < e.fromNode) return undefined;
    const at = (g - e.fromNode) * NODE_SIZE;
    return at + NODE_SIZE <= e.bytes.length ? e.bytes.subarray(at, at + NODE_SIZE) : undefined;
  }

  /** Marks the batch as just used (least recently used batches are dropped first). */
  touch(batchId: string): void {
    const e = this.entries.get(batchId);
    if (e === undefined) return;
    this.entries.delete(batchId);
    this.entries.set(batchId, e);
  }

  /** Whether some of the batch's levels are kept. */
  has(batchId: string): boolean {
    return this.entries.has(batchId);
  }

  /**
   * What to read to keep a batch of `span` level-1 nodes: its stored nodes from `fromNode` to the end (the
   * levels from `fromLevel`, counted from level 1), at most half the budget and a fair share of it; null
   * when nothing is to be kept.
   */
  plan(span: number): { fromLevel: number; fromNode: number; nodes: number } | null {
    const share = Math.min(this.budgetBytes / 2, this.budgetBytes / (this.entries.size + 1));
    const counts = levelCounts(span);
    let above = counts.reduce((sum, n) => sum + n, 0);
    let below = 0;
    for (let k = 0; k < counts.length; k++) {
      if (above * NODE_SIZE <= share) return { fromLevel: k, fromNode: below, nodes: above };
      below += counts[k]!;
      above -= counts[k]!;
    }
    return null;
  }

  /**
   * Keeps a batch's stored nodes from level `fromLevel` (as {@link plan} gave) to the end, making room as
   * described above; fewer of its levels when the budget is taken by batches keeping less.
   */
  keep(batchId: string, span: number, fromLevel: number, bytes: Buffer): void {
    this.drop(batchId);
    const counts = levelCounts(span);
    let entry: Entry = { counts, fromLevel, fromNode: sum(counts, 0, fromLevel), bytes };
    if (bytes.length !== sum(counts, fromLevel, counts.length) * NODE_SIZE) return;
    while (this.total + entry.bytes.length > this.budgetBytes) {
      const largest = this.largest();
      if (largest !== undefined && largest[1].bytes.length > entry.bytes.length) this.shorten(largest[0]);
      else if (entry.fromLevel < counts.length - 1) entry = shortened(entry);
      else if (largest !== undefined) this.drop(this.entries.keys().next().value!);
      else return;
    }
    if (entry.bytes !== bytes && entry.bytes.buffer === bytes.buffer)
      entry = { ...entry, bytes: Buffer.from(entry.bytes) };
    this.entries.set(batchId, entry);
    this.total += entry.bytes.length;
  }

  /**
   * Runs `load` for the batch, after the loads already asked for (one at a time, so each plans with what the
   * others kept and only one batch's levels are in transit); callers asking while it is pending share it.
   */
  loadOnce(batchId: string, load: () => Promise<void>): Promise<void> {
    const pending = this.loads.get(batchId);
    if (pending) return pending;
    const started = this.tail.then(load).finally(() => this.loads.delete(batchId));
    this.tail = started.catch(() => undefined);
    this.loads.set(batchId, started);
    return started;
  }

  /** Bytes of nodes kept. */
  get bytes(): number {
    return this.total;
  }

  private largest(): [string, Entry] | undefined {
    let best: [string, Entry] | undefined;
    for (const kv of this.entries) if (best === undefined || kv[1].bytes.length > best[1].bytes.length) best = kv;
    return best;
  }

  /** Drops the lowest kept level of a batch, or the batch when only its root is left. */
  private shorten(batchId: string): void {
    const e = this.entries.get(batchId)!;
    if (e.fromLevel >= e.counts.length - 1) return this.drop(batchId);
    const s = shortened(e);
    this.total -= e.bytes.length - s.bytes.length;
    this.entries.set(batchId, { ...s, bytes: Buffer.from(s.bytes) });
  }

  private drop(batchId: string): void {
    const e = this.entries.get(batchId);
    if (e === undefined) return;
    this.entries.delete(batchId);
    this.total -= e.bytes.length;
  }
}

interface Entry {
  /** Nodes on each stored level, level 1 first. */
  readonly counts: readonly number[];
  readonly fromLevel: number;
  readonly fromNode: number;
  readonly bytes: Buffer;
}

const sum = (counts: readonly number[], from: number, to: number) => counts.slice(from, to).reduce((s, n) => s + n, 0);

/** The entry without its lowest level (a view on the same bytes). */
function shortened(e: Entry): Entry {
  const dropped = e.counts[e.fromLevel]!;
  return {
    counts: e.counts,
    fromLevel: e.fromLevel + 1,
    fromNode: e.fromNode + dropped,
    bytes: e.bytes.subarray(dropped * NODE_SIZE),
  };
}
