/**
 * A ChunkHasher on worker threads: closing a batch hashes its chunks side by side, on the machine's other
 * cores, while the store reads the next leaves. The threads start with the first chunk of a close and end
 * once idle for `idleMs`, so a service between two closes carries none of them; a chunk smaller than
 * `inlineBelow` offsets is hashed on the calling thread (a small batch starts no thread).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChunkHasher } from '../../app/anchoring/chunk-hasher.port.js';
import { asBuffer } from '../../core/hash/hex.js';
import { chunkSubtree, type ChunkJob } from '../../core/merkle/batch-tree.js';

/**
 * A thread running chunk.worker: the built module beside this one; from the sources (tests and benches run
 * through tsx) the thread registers tsx first, as Node 20 does not carry `--import` into worker threads.
 */
function spawnWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./chunk.worker.js', import.meta.url));
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const worker = JSON.stringify(new URL('./chunk.worker.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${worker}); })`, { eval: true });
}

interface Pending {
  readonly resolve: (subtree: Buffer) => void;
  readonly reject: (err: Error) => void;
}

type Reply = { id: number; subtree: Uint8Array } | { id: number; error: string };

export interface ChunkWorkers {
  readonly hash: ChunkHasher;
  /** Ends the threads now (chunks in flight fail). */
  close(): Promise<void>;
}

export interface ChunkWorkerOptions {
  /** Threads to run (default: one per core but one, left to the store and the event loop; at least one). */
  readonly threads?: number;
  /** Idle time after which the threads end (default 2 s). */
  readonly idleMs?: number;
  /** Chunks of fewer offsets are hashed on the calling thread (default 4,096). */
  readonly inlineBelow?: number;
}

/** The ArrayBuffer of `bytes` when `bytes` spans all of it (so it can be moved, not copied, to another thread). */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer[] {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

export function chunkWorkers(opts: ChunkWorkerOptions = {}): ChunkWorkers {
  const threads = Math.max(1, opts.threads ?? os.availableParallelism() - 1);
  const pending = new Map<number, Pending>();
  let workers: Worker[] = [];
  let nextId = 0;
  let idle: NodeJS.Timeout | undefined;

  const settle = (reply: Reply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) p?.reject(new Error(reply.error));
    else p?.resolve(asBuffer(reply.subtree));
    if (pending.size === 0) idle = setTimeout(() => void close(), opts.idleMs ?? 2_000).unref();
  };
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    void close();
  };
  const start = () => {
    workers = Array.from({ length: threads }, () => {
      const w = spawnWorker();
      w.on('message', settle);
      w.on('error', failAll);
      w.on('exit', (code) => code !== 0 && pending.size > 0 && failAll(new Error(`a hashing thread ended (${code})`)));
      return w;
    });
  };
  const close = async () => {
    clearTimeout(idle);
    const ending = workers;
    workers = [];
    await Promise.all(ending.map((w) => w.terminate()));
  };

  const hash: ChunkHasher = (job: ChunkJob) => {
    if (job.count < (opts.inlineBelow ?? 4_096)) return Promise.resolve(chunkSubtree(job));
    clearTimeout(idle);
    if (workers.length === 0) start();
    const id = nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // The leaves move to the thread (the caller is done with them) rather than being copied.
      workers[id % workers.length]!.postMessage({ id, job }, ownBuffer(job.leaves));
    });
  };
  return { hash, close };
}
