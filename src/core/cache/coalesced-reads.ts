/**
 * Reads of single keys coalesced into reads of many: a call joins the pending read, which starts once the
 * event loop has taken in what had arrived (setImmediate) and fewer than `maxInFlight` reads are running;
 * every call that arrives until then joins it (up to `maxKeys` keys, beyond which the next pending read
 * takes them). A read never starts before any of its calls arrived, so each answer is as fresh as a read of
 * its own: what was committed before a call began is seen. N concurrent first reads cost a few statements
 * rather than N, like {@link FreshReads} does for one key.
 */
export type CoalescedReads<K, V> = (key: K) => Promise<V | undefined>;

export interface CoalescedReadsOptions {
  /** Most keys in one read. */
  readonly maxKeys: number;
  /** Most reads running at once (others wait, gathering more keys). */
  readonly maxInFlight: number;
}

interface Pending<K, V> {
  readonly keys: Set<K>;
  readonly done: Promise<Map<K, V>>;
  readonly resolve: (m: Map<K, V>) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * @param readMany - reads the given keys (distinct) at once; a key absent from its answer reads as undefined
 */
export function coalescedReads<K, V>(
  readMany: (keys: K[]) => Promise<Map<K, V>>,
  opts: CoalescedReadsOptions,
): CoalescedReads<K, V> {
  const queue: Pending<K, V>[] = [];
  let running = 0;
  let scheduled = false;

  const pump = () => {
    scheduled = false;
    while (running < opts.maxInFlight && queue.length > 0) {
      const pending = queue.shift()!;
      running++;
      void readMany([...pending.keys])
        .then(pending.resolve, pending.reject)
        .finally(() => {
          running--;
          schedule();
        });
    }
  };
  const schedule = () => {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(pump);
  };
  const open = (): Pending<K, V> => {
    const last = queue[queue.length - 1];
    if (last && last.keys.size < opts.maxKeys) return last;
    let settle!: Pick<Pending<K, V>, 'resolve' | 'reject'>;
    const done = new Promise<Map<K, V>>((resolve, reject) => (settle = { resolve, reject }));
    const pending = { keys: new Set<K>(), done, ...settle };
    queue.push(pending);
    return pending;
  };

  return (key) => {
    const pending = open();
    pending.keys.add(key);
    schedule();
    return pending.done.then((found) => found.get(key));
  };
}
