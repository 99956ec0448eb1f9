/**
 * A least-recently-used map bounded by the total weight of its values (e.g. their size in bytes): adding
 * past the bound drops the least recently used entries first. A Map keeps insertion order, so a read moves
 * its entry to the end and the oldest entry is the first.
 */
export class BoundedLru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  /**
   * @param maxWeight - the bound on the sum of the weights
   * @param weigh - the weight of a value (a value heavier than the bound is never kept)
   */
  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key`, dropping the least recently used entries beyond the bound. */
  set(key: string, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.entries.size;
  }
}
