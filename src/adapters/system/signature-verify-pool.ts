/**
 * Signature verification in worker threads (the SignatureVerifier port). Requests that arrive in the
 * same turn of the event loop go to a thread as one message (a batch), so the cost of crossing threads
 * is shared; each batch goes to the thread with the fewest items in hand. Threads start on the first
 * verification, so a process that never verifies (a worker role, the operator commands) starts none.
 */
import { Worker } from 'node:worker_threads';
import { DomainError, type ErrorCode } from '../../core/errors.js';
import type { SignatureVerifier, VerifyOutcome } from '../../app/anchoring/signature-verifier.port.js';

/** A batch sent to a thread: message, signature, pubKey of each item, one after the other. */
export interface VerifyBatch {
  readonly id: number;
  readonly items: string[];
}

/** null: verified; reason: does not verify; code and message: refused input (a DomainError); error: a fault. */
export type VerifyItemResult =
  null | { readonly reason: string } | { readonly code: string; readonly message: string } | { readonly error: string };

interface Waiting {
  resolve(outcome: VerifyOutcome): void;
  reject(err: unknown): void;
}

interface Thread {
  readonly worker: Worker;
  /** Items sent and not answered yet. */
  load: number;
  readonly batches: Map<number, Waiting[]>;
}

const OK: VerifyOutcome = { ok: true };
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./signature-verify.worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/**
 * The thread, on the module beside this one. Run from the TypeScript sources (tests, benchmarks, through
 * tsx), a thread does not inherit tsx's loader on Node 20, so it loads the module through tsx's API.
 */
function newWorker(): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_URL);
  const load = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true });
}

/** A pool of `threads` verification threads (at least one). */
export function signatureVerifyPool(threads: number): SignatureVerifier {
  const slots: (Thread | null)[] = Array.from({ length: Math.max(1, threads) }, () => null);
  let queued: string[] = [];
  let waiting: Waiting[] = [];
  let scheduled = false;
  let nextId = 0;
  let closed = false;

  function start(slot: number): Thread {
    const worker = newWorker();
    // The process's own handles decide when it ends; an idle thread never keeps it alive.
    worker.unref();
    const thread: Thread = { worker, load: 0, batches: new Map() };
    worker.on('message', ({ id, results }: { id: number; results: VerifyItemResult[] }) => {
      const batch = thread.batches.get(id)!;
      thread.batches.delete(id);
      thread.load -= batch.length;
      batch.forEach((w, i) => settle(w, results[i]!));
    });
    const lost = (err: unknown) => {
      if (slots[slot] === thread) slots[slot] = null;
      for (const batch of thread.batches.values()) batch.forEach((w) => w.reject(err));
      thread.batches.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`signature verification thread exited with ${code}`)));
    slots[slot] = thread;
    return thread;
  }

  function leastLoaded(): Thread {
    let best = -1;
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] === null) return start(i);
      if (best < 0 || slots[i]!.load < slots[best]!.load) best = i;
    }
    return slots[best]!;
  }

  function flush(): void {
    scheduled = false;
    if (waiting.length === 0) return;
    if (closed) {
      waiting.forEach((w) => w.reject(new Error('the signature verifier is closed')));
      queued = [];
      waiting = [];
      return;
    }
    const thread = leastLoaded();
    const id = nextId++;
    thread.batches.set(id, waiting);
    thread.load += waiting.length;
    thread.worker.postMessage({ id, items: queued } satisfies VerifyBatch);
    queued = [];
    waiting = [];
  }

  return {
    verify(message, signatureBase64, pubKey) {
      if (closed) return Promise.reject(new Error('the signature verifier is closed'));
      return new Promise<VerifyOutcome>((resolve, reject) => {
        queued.push(message, signatureBase64, pubKey);
        waiting.push({ resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.flatMap((t) => (t ? [t.worker.terminate()] : [])));
    },
  };
}

function settle(w: Waiting, result: VerifyItemResult): void {
  if (result === null) return w.resolve(OK);
  if ('reason' in result) return w.resolve({ ok: false, reason: result.reason });
  if ('error' in result) return w.reject(new Error(`signature verification failed: ${result.error}`));
  w.reject(new DomainError(result.code as ErrorCode, result.message));
}
