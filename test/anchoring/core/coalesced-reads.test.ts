/** Coalesced reads (core/cache/coalesced-reads.ts): many keys in one read, never a read begun before a call. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalescedReads } from '../../../src/core/cache/coalesced-reads.js';

/** A store of values that change at will; each read reports the values when it began and ends when told. */
function source() {
  const values = new Map<string, number>();
  const reads: { keys: string[]; end: () => void; fail: (e: Error) => void }[] = [];
  const readMany = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      const seen = new Map(keys.filter((k) => values.has(k)).map((k) => [k, values.get(k)!]));
      reads.push({ keys, end: () => resolve(seen), fail: reject });
    });
  const tick = () => new Promise((r) => setImmediate(r));
  return { values, reads, readMany, tick };
}

describe('coalesced reads', () => {
  it('concurrent calls share one read of all their keys; an unknown key reads as undefined', async () => {
    const s = source();
    s.values.set('a', 1).set('b', 2);
    const read = coalescedReads(s.readMany, { maxKeys: 100, maxInFlight: 1 });
    const answers = Promise.all([read('a'), read('b'), read('a'), read('zz')]);
    await s.tick();
    assert.equal(s.reads.length, 1);
    assert.deepEqual(s.reads[0]!.keys, ['a', 'b', 'zz'], 'each key once');
    s.reads[0]!.end();
    assert.deepEqual(await answers, [1, 2, 1, undefined]);
  });

  it('a call made while a read is in flight joins the next read, which sees what changed meanwhile', async () => {
    const s = source();
    s.values.set('a', 1);
    const read = coalescedReads(s.readMany, { maxKeys: 100, maxInFlight: 1 });
    const first = read('a');
    await s.tick();
    assert.equal(s.reads.length, 1, 'the first read has begun');
    s.values.set('a', 2); // a fee bump commits while the first read is in flight
    const second = read('a');
    await s.tick();
    assert.equal(s.reads.length, 1, 'not a second read while the first is in flight (one at a time)');
    s.reads[0]!.end();
    assert.equal(await first, 1);
    await s.tick();
    assert.equal(s.reads.length, 2, 'the later call gets a read of its own, begun after it');
    s.reads[1]!.end();
    assert.equal(await second, 2, 'and sees the change');
  });

  it('runs up to maxInFlight reads at once and splits beyond maxKeys', async () => {
    const s = source();
    const read = coalescedReads(s.readMany, { maxKeys: 2, maxInFlight: 2 });
    const all = Promise.all(['a', 'b', 'c', 'd', 'e'].map((k) => read(k)));
    await s.tick();
    assert.deepEqual(
      s.reads.map((r) => r.keys),
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
    s.reads[0]!.end();
    await s.tick();
    await s.tick();
    assert.deepEqual(s.reads[2]!.keys, ['e'], 'the third read starts when one ends');
    s.reads[1]!.end();
    s.reads[2]!.end();
    assert.deepEqual(await all, [undefined, undefined, undefined, undefined, undefined]);
  });

  it('a failed read fails its calls only; the next read goes on', async () => {
    const s = source();
    s.values.set('a', 1);
    const read = coalescedReads(s.readMany, { maxKeys: 100, maxInFlight: 1 });
    const failed = read('a');
    await s.tick();
    const later = read('a');
    s.reads[0]!.fail(new Error('connection lost'));
    await assert.rejects(failed, /connection lost/);
    await s.tick();
    s.reads[1]!.end();
    assert.equal(await later, 1);
  });
});
