/** Streaming a file into sealed chunks: bounded reads, exact ranges back, tampering caught. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type {
  DocumentObjectHeader,
  DocumentObjectStore,
} from '../../../src/app/signature-requests/document/document.port.js';
import { readSealed, writeSealed } from '../../../src/app/signature-requests/document/sealed-stream.js';
import { CHUNK_BYTES } from '../../../src/core/crypto/chunk-box.js';

const SECRET = 'a-secret-key-of-at-least-32-characters!!';

/** An object store in memory: the chunks as written. */
function memoryObjects() {
  const written: Buffer[] = [];
  const store: Pick<DocumentObjectStore, 'chunks'> = {
    async *chunks(_name, first, last) {
      for (let i = first; i <= last && i < written.length; i++) yield written[i]!;
    },
  };
  const writer = {
    append: async (c: Uint8Array) => void written.push(Buffer.from(c)),
    commit: async () => undefined,
    abort: async () => undefined,
  };
  return { written, store: store as DocumentObjectStore, writer };
}

async function* pieces(data: Buffer, size: number, counter: { read: number }) {
  for (let at = 0; at < data.length; at += size) {
    counter.read += Math.min(size, data.length - at);
    yield data.subarray(at, at + size);
  }
}

async function readAll(it: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const b of it) out.push(b);
  return Buffer.concat(out);
}

describe('sealed stream', () => {
  it('hashes and seals as it reads, and gives back any range exactly', async () => {
    const data = randomBytes(2 * CHUNK_BYTES + 12345);
    const m = memoryObjects();
    const salt = randomBytes(16);
    const w = await writeSealed(pieces(data, 70_000, { read: 0 }), m.writer, {
      secretKey: SECRET,
      salt,
      maxBytes: 1e9,
    });
    assert.equal(w.sha256, createHash('sha256').update(data).digest('hex'));
    assert.equal(m.written.length, 3);
    const header: DocumentObjectHeader = { salt, size: data.length, chunkBytes: CHUNK_BYTES };
    const read = (start: number, end: number) =>
      readAll(readSealed(m.store, 'x', header, { secretKey: SECRET, start, end }));
    assert.ok((await read(0, data.length - 1)).equals(data));
    for (const [s, e] of [
      [CHUNK_BYTES - 1, CHUNK_BYTES],
      [5, 5],
      [2 * CHUNK_BYTES, data.length - 1],
    ] as const)
      assert.ok((await read(s, e)).equals(data.subarray(s, e + 1)), `${s}-${e}`);
  });

  it('stops reading once past the limit: never more than one piece beyond it', async () => {
    const data = randomBytes(1_000_000);
    const counter = { read: 0 };
    const m = memoryObjects();
    await assert.rejects(
      writeSealed(pieces(data, 16_384, counter), m.writer, {
        secretKey: SECRET,
        salt: randomBytes(16),
        maxBytes: 100_000,
      }),
      { code: 'PAYLOAD_TOO_LARGE' },
    );
    assert.ok(counter.read <= 100_000 + 16_384, `read ${counter.read}`);
  });

  it('refuses to serve an object whose last chunk was dropped or whose chunks were swapped', async () => {
    const data = randomBytes(CHUNK_BYTES + 10);
    const m = memoryObjects();
    const salt = randomBytes(16);
    await writeSealed(pieces(data, 65_536, { read: 0 }), m.writer, { secretKey: SECRET, salt, maxBytes: 1e9 });
    const header = { salt, size: data.length, chunkBytes: CHUNK_BYTES };
    const all = () => readAll(readSealed(m.store, 'x', header, { secretKey: SECRET, start: 0, end: data.length - 1 }));
    m.written.reverse();
    await assert.rejects(all(), { code: 'UNAUTHORIZED' });
    m.written.reverse();
    m.written.pop();
    await assert.rejects(all(), { code: 'UNAUTHORIZED' });
  });
});
