/**
 * Reads shared by concurrent callers without ever answering with a value read before the call began: a
 * call joins the next read of its key, which starts once the read in flight (if any) has ended and the
 * event loop has taken in what had arrived (setImmediate), and every call that arrives meanwhile shares that
 * next read. So N concurrent calls for one key cost a few reads rather than N, and each answer was read after
 * its call started — as fresh as a read of its own. Waiting for the event loop's turn matters when a read
 * runs on this thread (the embedded store): requests that arrived during it join the next one.
 */
export type FreshReads<K, V> = (key: K, read: () => Promise<V>) => Promise<V>;

interface InFlight<V> {
  readonly running: Promise<V>;
  /** The read that starts when `running` ends, shared by the calls that came after `running` started. */
  next: Promise<V> | null;
}

export function freshReads<K, V>(): FreshReads<K, V> {
  const inFlight = new Map<K, InFlight<V>>();
  const start = (key: K, read: () => Promise<V>): Promise<V> => {
    const entry: InFlight<V> = { running: new Promise((resolve) => setImmediate(resolve)).then(read), next: null };
    inFlight.set(key, entry);
    const forget = () => {
      if (inFlight.get(key) === entry && entry.next === null) inFlight.delete(key);
    };
    entry.running.then(forget, forget);
    return entry.running;
  };
  return (key, read) => {
    const entry = inFlight.get(key);
    if (!entry) return start(key, read);
    entry.next ??= entry.running.then(
      () => start(key, read),
      () => start(key, read),
    );
    return entry.next;
  };
}
