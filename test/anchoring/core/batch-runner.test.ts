/** The batch runner behind the ingest's group commit and shared transactions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchRunner } from '../../../src/core/concurrency/batch-runner.js';

/** A queue of numbers run in batches of at most `size`, each batch taking `ms`; returns the batches seen. */
function harness(opts: { maxInFlight: number; size: number; ms: number }) {
  const queue: number[] = [];
  const batches: number[][] = [];
  let running = 0;
  let most = 0;
  const done: (() => void)[] = [];
  const schedule = batchRunner({
    maxInFlight: opts.maxInFlight,
    waiting: () => queue.length > 0,
    take: () => (queue.length > 0 ? queue.splice(0, opts.size) : undefined),
    run: async (batch) => {
      running += 1;
      most = Math.max(most, running);
      batches.push(batch);
      await new Promise((r) => setTimeout(r, opts.ms));
      running -= 1;
      if (queue.length === 0 && running === 0) done.splice(0).forEach((d) => d());
    },
  });
  const add = (...n: number[]) => {
    queue.push(...n);
    schedule();
  };
  const idle = () => new Promise<void>((r) => done.push(r));
  return { add, batches, idle, most: () => most };
}

describe('batch runner', () => {
  it('work queued in one tick forms one batch, started without waiting for more', async () => {
    const h = harness({ maxInFlight: 2, size: 100, ms: 5 });
    h.add(1, 2);
    h.add(3);
    const idle = h.idle();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(h.batches, [[1, 2, 3]], 'the batch has started by the next turn of the event loop');
    await idle;
    assert.deepEqual(h.batches, [[1, 2, 3]]);
  });

  it('never more than maxInFlight batches at once; what arrives meanwhile forms the next batches', async () => {
    const h = harness({ maxInFlight: 2, size: 3, ms: 20 });
    h.add(...Array.from({ length: 10 }, (_, i) => i));
    const idle = h.idle();
    await new Promise((r) => setTimeout(r, 5));
    h.add(10, 11);
    await idle;
    assert.equal(h.most(), 2);
    assert.deepEqual(
      h.batches.flat().sort((a, b) => a - b),
      Array.from({ length: 12 }, (_, i) => i),
    );
    assert.ok(h.batches.every((b) => b.length <= 3));
  });

  it('a take that has nothing to start leaves the work queued for the next end of a batch', async () => {
    const queue = [1, 2];
    const ran: number[][] = [];
    let allow = false;
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const schedule = batchRunner({
      maxInFlight: 1,
      waiting: () => queue.length > 0,
      take: () => (allow || ran.length === 0 ? queue.splice(0, 1) : undefined),
      run: async (batch) => {
        ran.push(batch);
        allow = true;
        await new Promise((r) => setTimeout(r, 5));
        if (queue.length === 0) finish();
      },
    });
    schedule();
    await finished;
    assert.deepEqual(ran, [[1], [2]]);
  });
});
