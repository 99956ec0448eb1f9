/** Shared reads (core/cache/fresh-reads.ts): never a value read before the call, and few reads for many calls. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshReads } from '../../../src/core/cache/fresh-reads.js';

/** A value that changes at will, and reads of it that end when told, each reporting the value when it began. */
function source() {
  let value = 0;
  const reads: { began: number; end: () => void }[] = [];
  const read = () =>
    new Promise<number>((resolve) => {
      const began = value;
      reads.push({ began, end: () => resolve(began) });
    });
  const tick = () => new Promise((r) => setImmediate(r));
  return { reads, read, tick, set: (v: number) => (value = v) };
}

describe('fresh reads', () => {
  it('a call made while a read is in flight waits for the next read, not the one in flight', async () => {
    const s = source();
    const fresh = freshReads<string, number>();
    const first = fresh('batch', s.read);
    await s.tick();
    assert.equal(s.reads.length, 1, 'the first read has begun');
    s.set(1); // a fee bump commits while the first read is in flight
    const second = fresh('batch', s.read);
    const third = fresh('batch', s.read);
    await s.tick();
    assert.equal(s.reads.length, 1, 'no other read while the first is in flight');
    s.reads[0]!.end();
    assert.equal(await first, 0);
    await s.tick();
    assert.equal(s.reads.length, 2, 'the next read begins once the first has ended');
    s.reads[1]!.end();
    assert.equal(await second, 1, 'the later call sees the change');
    assert.equal(await third, 1, 'and shares that read');
    assert.equal(s.reads.length, 2, 'three calls, two reads');
  });

  it('keys do not share reads; a failed read fails its callers and the next call reads again', async () => {
    const fresh = freshReads<string, number>();
    let n = 0;
    const [a, b] = await Promise.all([fresh('a', async () => ++n), fresh('b', async () => ++n)]);
    assert.deepEqual([a, b].sort(), [1, 2]);
    await assert.rejects(
      fresh('a', () => Promise.reject(new Error('store down'))),
      /store down/,
    );
    assert.equal(await fresh('a', async () => 42), 42);
  });
});
