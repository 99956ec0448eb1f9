/**
 * The contract of a DocumentObjectStore, written once for every adapter (the store's tables today, an
 * S3-compatible object store later): call it inside a `describe` with a function opening a fresh store.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { DocumentObjectStore } from '../../src/app/signature-requests/document/document.port.js';

const header = (size: number) => ({ salt: randomBytes(16), size, chunkBytes: 4 });

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of chunks) out.push(Buffer.from(c));
  return out;
}

async function write(objects: DocumentObjectStore, name: string, parts: Buffer[], now: number) {
  const w = await objects.begin(now);
  for (const p of parts) await w.append(p);
  await w.commit(name, header(parts.length * 4), now);
}

export function documentObjectContract(objects: () => DocumentObjectStore): void {
  const name = () => randomBytes(32).toString('hex');
  const parts = [Buffer.from('aaaa'), Buffer.from('bbbb'), Buffer.from('cccc'), Buffer.from('dd')];

  it('shows nothing before commit, then the header and the chunks asked for, in order', async () => {
    const n = name();
    const w = await objects().begin(1000);
    for (const p of parts) await w.append(p);
    assert.equal(await objects().header(n), null);
    const h = header(14);
    await w.commit(n, h, 1000);
    const got = await objects().header(n);
    assert.deepEqual(got && { ...got, salt: Buffer.from(got.salt) }, { ...h, salt: Buffer.from(h.salt) });
    assert.deepEqual(await collect(objects().chunks(n, 0, 3)), parts);
    assert.deepEqual(await collect(objects().chunks(n, 1, 2)), parts.slice(1, 3));
  });

  it('keeps the first object of a name: a second commit of the same content is dropped', async () => {
    const n = name();
    await write(objects(), n, parts, 1000);
    const first = await objects().header(n);
    await write(objects(), n, [Buffer.from('zzzz')], 2000);
    assert.deepEqual(Buffer.from((await objects().header(n))!.salt), Buffer.from(first!.salt));
    assert.deepEqual(await collect(objects().chunks(n, 0, 3)), parts);
  });

  it('drops an aborted write', async () => {
    const n = name();
    const w = await objects().begin(1000);
    await w.append(Buffer.from('xxxx'));
    await w.abort();
    assert.equal(await objects().header(n), null);
    assert.equal(await objects().sweepAbandoned(Number.MAX_SAFE_INTEGER), 0);
  });

  it('removes an object only when untouched since the given time; a second commit touches it', async () => {
    const n = name();
    await write(objects(), n, parts, 1000);
    assert.equal(await objects().remove(n, 1000), false);
    await write(objects(), n, parts, 5000);
    assert.equal(await objects().remove(n, 4000), false, 'touched again at 5000');
    assert.equal(await objects().remove(n, 5001), true);
    assert.equal(await objects().header(n), null);
    assert.deepEqual(await collect(objects().chunks(n, 0, 3)), []);
    assert.equal(await objects().remove(n, 9999), false);
  });

  it('sweeps writes abandoned before a time, and never a committed object or a newer write', async () => {
    const kept = name();
    await write(objects(), kept, parts, 1000);
    const old = await objects().begin(1000);
    await old.append(Buffer.from('oooo'));
    const young = await objects().begin(9000);
    await young.append(Buffer.from('yyyy'));
    assert.ok((await objects().sweepAbandoned(5000)) >= 1);
    assert.deepEqual(await collect(objects().chunks(kept, 0, 3)), parts);
    const fresh = name();
    await young.commit(fresh, header(4), 9000);
    assert.deepEqual(await collect(objects().chunks(fresh, 0, 0)), [Buffer.from('yyyy')]);
  });
}
