/**
 * The embedded store belongs to one process. PGlite keeps the whole database in the memory of the
 * process that opened it and writes its files back on its own schedule: two processes on the same files
 * silently overwrite each other. A lock file next to the data, created with O_EXCL and holding the
 * holder's pid, makes a second opener fail at once; a lock left by a process that died (SIGKILL, power
 * loss) is taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const LOCK_FILE = 'store.lock';

/** What the lock file says about its holder. */
export interface LockHolder {
  readonly pid: number;
  readonly since: string;
  readonly command: string;
}

/** Thrown when another live process holds the embedded store. */
export class StoreHeldError extends Error {
  constructor(
    readonly holder: LockHolder,
    readonly lockFile: string,
  ) {
    super(
      `the embedded store in ${path.dirname(lockFile)} is in use by process ${holder.pid} (${holder.command}, ` +
        `since ${holder.since}): stop that process first, or use PostgreSQL (DATABASE_URL) to run several`,
    );
    this.name = 'StoreHeldError';
  }
}

/** A held lock; {@link release} removes the file if it is still ours. */
export interface StoreLock {
  readonly file: string;
  release(): void;
}

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads the lock file; null when it is absent or unreadable (a holder that died while writing it). */
export function readLock(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockHolder>;
    return Number.isSafeInteger(parsed.pid) ? (parsed as LockHolder) : null;
  } catch {
    return null;
  }
}

/** The live process holding the store in `dataDir`, or null when it is free (or the lock is stale). */
export function storeHolder(dataDir: string): LockHolder | null {
  const holder = readLock(path.join(dataDir, LOCK_FILE));
  return holder && holder.pid !== process.pid && isAlive(holder.pid) ? holder : null;
}

/**
 * Takes the lock of the embedded store in `dataDir` for this process.
 * @throws StoreHeldError when a live process holds it.
 */
export function acquireStoreLock(dataDir: string): StoreLock {
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    since: new Date().toISOString(),
    command: process.argv.slice(2).join(' '),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      return heldLock(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(file);
    if (holder && isAlive(holder.pid)) throw new StoreHeldError(holder, file);
    removeStale(file, holder);
  }
  throw new Error(`could not take the lock ${file}: other processes keep taking it over`);
}

/**
 * Removes a stale lock without ever removing a live one: the file is first moved aside (rename is
 * atomic, so of two processes taking over only one gets it); if what was moved is not the stale lock
 * that was read (another process took over in between), it is put back.
 */
function removeStale(file: string, stale: LockHolder | null): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = readLock(aside);
  if (moved && stale && moved.pid !== stale.pid && isAlive(moved.pid)) restore(aside, file);
  fs.rmSync(aside, { force: true });
}

function restore(aside: string, file: string): void {
  try {
    fs.linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

function heldLock(file: string): StoreLock {
  const onExit = () => releaseIfOurs(file);
  process.once('exit', onExit);
  return {
    file,
    release() {
      process.removeListener('exit', onExit);
      releaseIfOurs(file);
    },
  };
}

function releaseIfOurs(file: string): void {
  if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}
