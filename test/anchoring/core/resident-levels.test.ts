/** Resident batch levels (core/cache/resident-levels.ts): exact nodes from memory, within the byte budget. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResidentLevels } from '../../../src/core/cache/resident-levels.js';
import { levelCounts, NODE_SIZE } from '../../../src/core/merkle/tree.js';

/** A batch's stored form whose node g holds g (so a node read says which one it is). */
function storedForm(span: number): Buffer {
  const total = levelCounts(span).reduce((s, n) => s + n, 0);
  const out = Buffer.alloc(total * NODE_SIZE);
  for (let g = 0; g < total; g++) out.writeUInt32BE(g, g * NODE_SIZE);
  return out;
}

/** Keeps what `levels` plans for a batch of `span`, as the store adapter does. */
function load(levels: ResidentLevels, id: string, span: number): boolean {
  const plan = levels.plan(span);
  if (plan === null) return false;
  const all = storedForm(span);
  levels.keep(id, span, plan.fromLevel, Buffer.from(all.subarray(plan.fromNode * NODE_SIZE)));
  return true;
}

const nodeNumber = (b: Buffer | undefined) => b?.readUInt32BE(0);

describe('resident levels', () => {
  it('a batch that fits is kept whole and every node reads back as stored', () => {
    const levels = new ResidentLevels(1024 * 1024);
    assert.ok(load(levels, 'b1', 1000));
    const total = levelCounts(1000).reduce((s, n) => s + n, 0);
    for (const g of [0, 1, 999, 1000, total - 1]) assert.equal(nodeNumber(levels.node('b1', g)), g);
    assert.equal(levels.node('b1', total), undefined, 'past the end');
    assert.equal(levels.node('other', 0), undefined);
  });

  it('keeps only the upper levels of a batch bigger than its share, never more than the budget', () => {
    const budget = 64 * 1024; // 2,048 nodes
    const levels = new ResidentLevels(budget);
    assert.ok(load(levels, 'big', 100_000));
    assert.ok(levels.bytes <= budget / 2, `${levels.bytes} bytes kept`);
    const counts = levelCounts(100_000);
    const root = counts.reduce((s, n) => s + n, 0) - 1;
    assert.equal(nodeNumber(levels.node('big', root)), root, 'the root level is kept');
    assert.equal(levels.node('big', 5), undefined, 'level 1 is not');
  });

  it('makes room by shortening the batch keeping the most, so many batches share the budget', () => {
    const budget = 200 * 1024;
    const levels = new ResidentLevels(budget);
    for (let i = 0; i < 20; i++) {
      load(levels, `b${i}`, 2_000);
      assert.ok(levels.bytes <= budget, `over budget after ${i}: ${levels.bytes}`);
    }
    const total = levelCounts(2_000).reduce((s, n) => s + n, 0);
    for (let i = 0; i < 20; i++) assert.equal(nodeNumber(levels.node(`b${i}`, total - 1)), total - 1, `b${i} root`);
    for (let i = 0; i < 20; i++)
      for (let g = 0; g < total; g += 97) {
        const n = levels.node(`b${i}`, g);
        if (n !== undefined) assert.equal(nodeNumber(n), g, 'a kept node is the stored one');
      }
  });

  it('a budget of 0 keeps nothing', () => {
    const levels = new ResidentLevels(0);
    assert.equal(levels.plan(10), null);
  });

  it('bytes that do not match the batch are not kept', () => {
    const levels = new ResidentLevels(1024 * 1024);
    levels.keep('b', 1000, 0, Buffer.alloc(10));
    assert.equal(levels.has('b'), false);
  });

  it('concurrent loads of one batch run once', async () => {
    const levels = new ResidentLevels(1024);
    let runs = 0;
    const load = () => new Promise<void>((r) => setImmediate(() => (runs++, r())));
    await Promise.all([levels.loadOnce('b', load), levels.loadOnce('b', load)]);
    assert.equal(runs, 1);
    await levels.loadOnce('b', load);
    assert.equal(runs, 2, 'a later load runs again');
  });

  it('loads of different batches run one after another, each planned with what the others kept', async () => {
    const levels = new ResidentLevels(1024 * 1024);
    let running = 0;
    let most = 0;
    const load = (id: string) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      assert.ok(levels.plan(1000), 'planned');
      running--;
      levels.keep(id, 1, 0, Buffer.alloc(32));
    };
    await Promise.all(['a', 'b', 'c'].map((id) => levels.loadOnce(id, load(id))));
    assert.equal(most, 1, 'never two at once');
    assert.ok(levels.has('a') && levels.has('b') && levels.has('c'));
    await assert.rejects(
      levels.loadOnce('d', () => Promise.reject(new Error('lost'))),
      /lost/,
    );
    let ran = false;
    await levels.loadOnce('e', async () => void (ran = true));
    assert.ok(ran, 'a failed load does not stop the next');
  });
});
