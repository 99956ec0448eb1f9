/**
 * Every reading of a user's PDF on the server runs here, off the event loop (issue 32): in a worker thread
 * with its own heap cap (`resourceLimits`), terminated past its wall time. A document that exhausts the
 * thread's heap, loops or recurses kills that thread only; the service goes on, and the caller gets a
 * `PdfLimitError` saying which limit the document broke.
 *
 * Threads are kept and reused (`size` at most, unref'd: they never keep the process alive), and stopped
 * after `idleMs` unused: a new thread costs its start and the loading of pdf-lib and PKI.js again, about
 * 1.7 s against 50 ms for a pooled one (docs/hardening.md). A thread that failed or was stopped is never
 * reused.
 */
import { Worker } from 'node:worker_threads';
import type { PdfBounds, PdfInspection } from './pdf-bounds.js';
import type { SignatureFieldSpec, SignatureDss } from './pades-signer.js';

export interface PdfWorkerLimits {
  /** Threads at once (tasks beyond wait their turn). */
  readonly size: number;
  /** Heap of one thread, MB (V8's old generation). */
  readonly maxHeapMb: number;
  /** Wall time of one task in its thread, ms (the wait for a thread not counted). */
  readonly timeoutMs: number;
  /** A thread left idle this long is stopped (its heap given back), ms. */
  readonly idleMs: number;
  /** Bounds of the structure check; the defaults of pdf-bounds.ts when absent. */
  readonly bounds?: PdfBounds;
}

/**
 * One thread; 256 MB of heap and 60 s: the worst documents the bounds accept took at most 64 MB and 10 s on the
 * loaded 2-core machine (docs/hardening.md).
 */
export const PDF_WORKER_LIMITS: PdfWorkerLimits = { size: 1, maxHeapMb: 256, timeoutMs: 60_000, idleMs: 60_000 };

/**
 * The checks of uploads (pdf-bounds.ts alone, no pdf-lib): a pool of their own, so an upload never waits behind a
 * signed copy; 20 s and 128 MB, where the largest check took well under a second and 16 MB.
 */
export const PDF_CHECK_LIMITS: PdfWorkerLimits = { size: 1, maxHeapMb: 128, timeoutMs: 20_000, idleMs: 60_000 };

/** What a thread does: messages in, one answer each. */
export type PdfTask =
  | { readonly op: 'inspect'; readonly pdf: Uint8Array }
  | {
      readonly op: 'assemble';
      readonly original: Uint8Array;
      readonly attestation: Uint8Array;
      readonly attachment: { fileName: string; bytes: Uint8Array; date: number };
    }
  | {
      readonly op: 'prepare-signature';
      readonly pdf: Uint8Array;
      readonly spec: SignatureFieldSpec;
      readonly room: number;
      readonly dss: SignatureDss;
    };

/** A thread's answer: its result, a refusal of the document, or a fault. */
export type PdfAnswer =
  { readonly ok: Uint8Array | PdfInspection } | { readonly refusal: string } | { readonly error: string };

/** The document broke a limit of its thread: its wall time or its heap. */
export class PdfLimitError extends Error {
  override readonly name = 'PdfLimitError';
}

export interface PdfWorkerPool {
  run(task: PdfTask): Promise<PdfAnswer>;
  close(): Promise<void>;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./pdf.worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

function newWorker(limits: PdfWorkerLimits): Worker {
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    workerData: { bounds: limits.bounds ?? null },
  };
  if (!FROM_SOURCE) return new Worker(WORKER_URL, options);
  // From the TypeScript sources (tests, benchmarks), the thread loads its module through tsx's API.
  const load = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { ...options, eval: true });
}

interface Queued {
  readonly task: PdfTask;
  resolve(answer: PdfAnswer): void;
  reject(err: unknown): void;
}

/** A pool of at most `limits.size` PDF threads, started on first use. */
export function pdfWorkerPool(limits: PdfWorkerLimits = PDF_WORKER_LIMITS): PdfWorkerPool {
  const idle: Worker[] = [];
  const reapers = new Map<Worker, NodeJS.Timeout>();
  const busy = new Set<Worker>();
  const queue: Queued[] = [];
  let closed = false;

  function pump(): void {
    while (queue.length > 0 && busy.size < limits.size) {
      const worker = idle.pop() ?? newWorker(limits);
      clearTimeout(reapers.get(worker));
      reapers.delete(worker);
      worker.unref();
      busy.add(worker);
      runOn(worker, queue.shift()!);
    }
  }

  function keepIdle(worker: Worker): void {
    idle.push(worker);
    const reaper = setTimeout(() => {
      reapers.delete(worker);
      idle.splice(idle.indexOf(worker), 1);
      void worker.terminate();
    }, limits.idleMs);
    reaper.unref();
    reapers.set(worker, reaper);
  }

  function runOn(worker: Worker, job: Queued): void {
    let settled = false;
    const finish = (reuse: boolean, settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      busy.delete(worker);
      if (reuse && !closed) keepIdle(worker);
      else void worker.terminate();
      settle();
      pump();
    };
    const onMessage = (answer: PdfAnswer) => finish(!('error' in answer), () => job.resolve(answer));
    const onError = (err: Error & { code?: string }) => finish(false, () => job.reject(brokenBy(err, limits, closed)));
    // Only the pool stops a thread; a thread that ends by itself is a fault of the service (retried), not the document's.
    const onExit = (code: number) =>
      finish(false, () => job.reject(new Error(`the PDF thread stopped (exit ${code})`)));
    const timer = setTimeout(
      () =>
        finish(false, () => job.reject(new PdfLimitError(`it was not processed within ${limits.timeoutMs / 1000} s`))),
      limits.timeoutMs,
    );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job.task);
  }

  return {
    run(task) {
      if (closed) return Promise.reject(new Error('the PDF workers are closed'));
      return new Promise<PdfAnswer>((resolve, reject) => {
        queue.push({ task, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the PDF workers are closed'));
      reapers.forEach((reaper) => clearTimeout(reaper));
      await Promise.all([...idle.splice(0), ...busy].map((w) => w.terminate()));
    },
  };
}

/**
 * The document's fault (a PdfLimitError, a final refusal) only when it ran the thread's heap out; any other error
 * of a thread (its module not loaded, the pool closed under it) is the service's, and the work is tried again.
 */
function brokenBy(err: Error & { code?: string }, limits: PdfWorkerLimits, closed: boolean): Error {
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY' && !closed)
    return new PdfLimitError(`reading it needs more than ${limits.maxHeapMb} MB`);
  return new Error(`the PDF thread failed: ${err.message}`);
}
