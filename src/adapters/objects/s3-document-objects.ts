/**
 * Sealed files in an S3-compatible object store (OBJECT_STORE_URL): the DocumentObjectStore port over a few
 * S3 calls. Under the store's prefix, `documents/`:
 *
 * - `w/<writeId>/<n>`: the n-th sealed chunk of a write, one object each, PUT as it arrives. A 25 MB upload
 *   is 100 objects of 256 KiB: one chunk in memory per upload, where S3's multipart upload would hold a
 *   5 MiB part per upload (its smallest), and a range read fetches only the chunks it covers.
 * - `o/<name>`: the committed object, named by its keyed hash (content-addressed; the store learns neither
 *   the file's hash nor its bytes): a small JSON index of the write holding its chunks, the salt, sizes and
 *   when it was last touched.
 * - `p/<started>-<writeId>`: a write in progress, removed at commit or abort (holding the name while the
 *   commit runs); what is left of a write begun before a time, and not committed, is what `sweepAbandoned` drops.
 *
 * S3 has no transactions. A commit writes the index with `If-None-Match: *` (honoured by AWS S3, MinIO and
 * R2), then reads it back and keeps its chunks only when the index names its write, so two uploads of one
 * file leave one object. The removal reads the index before deleting it: a commit of the same file in the
 * instant between those two calls, to an object untouched for the removal's grace period, would lose the
 * object (its download then answers 404 NO_DOCUMENT, its proofs unaffected); docs/signature-requests.md says so.
 */
import { randomUUID } from 'node:crypto';
import type {
  DocumentObjectHeader,
  DocumentObjectStore,
  DocumentObjectWriter,
} from '../../app/signature-requests/document/document.port.js';
import type { S3Client } from './s3-client.js';

/** Chunks fetched ahead of the one being read (each 256 KiB): the download streams without waiting on each GET. */
const READ_AHEAD = 3;
/** Deletions in flight when dropping a write's chunks. */
const DELETES_IN_FLIGHT = 8;

interface Index {
  readonly v: 1;
  readonly writeId: string;
  readonly salt: string;
  readonly size: number;
  readonly chunkBytes: number;
  readonly chunks: number;
  readonly touched: number;
}

const TIME_DIGITS = 15;

export function s3DocumentObjects(s3: S3Client, prefix: string): DocumentObjectStore {
  const root = `${prefix}documents/`;
  const indexKey = (name: string) => `${root}o/${name}`;
  const chunkKey = (writeId: string, n: number) => `${root}w/${writeId}/${n}`;
  const pendingKey = (started: number, writeId: string) =>
    `${root}p/${String(Math.max(0, Math.trunc(started))).padStart(TIME_DIGITS, '0')}-${writeId}`;

  async function readIndex(name: string): Promise<Index | null> {
    if (!/^[0-9a-f]{64}$/.test(name)) return null;
    const bytes = await s3.get(indexKey(name));
    return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Index) : null;
  }
  const writeIndex = (name: string, index: Index, ifAbsent: boolean) =>
    s3.put(indexKey(name), Buffer.from(JSON.stringify(index)), { contentType: 'application/json', ifAbsent });

  async function dropChunks(writeId: string, count: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < count) await s3.delete(chunkKey(writeId, next++));
    };
    await Promise.all(Array.from({ length: Math.min(DELETES_IN_FLIGHT, count) }, worker));
  }

  function writer(started: number): DocumentObjectWriter {
    const writeId = randomUUID();
    const pending = pendingKey(started, writeId);
    let count = 0;
    let marked: Promise<unknown> | null = null;
    const drop = async () => {
      await dropChunks(writeId, count);
      await s3.delete(pending);
    };
    return {
      async append(sealed) {
        marked ??= s3.put(pending, new Uint8Array(0));
        await marked;
        await s3.put(chunkKey(writeId, count), sealed);
        count++;
      },
      async commit(name, header: DocumentObjectHeader, now) {
        const mine: Index = {
          v: 1,
          writeId,
          salt: Buffer.from(header.salt).toString('base64'),
          size: header.size,
          chunkBytes: header.chunkBytes,
          chunks: count,
          touched: now,
        };
        await s3.put(pending, Buffer.from(name));
        if (!(await readIndex(name)) && (await writeIndex(name, mine, true))) {
          // Read back: a store ignoring If-None-Match lets the last writer win; the loser then drops its chunks.
          if ((await readIndex(name))?.writeId === writeId) {
            await s3.delete(pending);
            return;
          }
        }
        const kept = await readIndex(name);
        if (kept && kept.touched < now) await writeIndex(name, { ...kept, touched: now }, false);
        await drop();
      },
      abort: drop,
    };
  }

  return {
    begin: async (now) => writer(now),
    async header(name) {
      const index = await readIndex(name);
      return index
        ? { salt: new Uint8Array(Buffer.from(index.salt, 'base64')), size: index.size, chunkBytes: index.chunkBytes }
        : null;
    },
    async *chunks(name, first, last) {
      const index = await readIndex(name);
      if (!index) return;
      const end = Math.min(last, index.chunks - 1);
      const ahead: Promise<Uint8Array | null>[] = [];
      let asked = first;
      const ask = () => {
        while (asked <= end && ahead.length <= READ_AHEAD) ahead.push(s3.get(chunkKey(index.writeId, asked++)));
      };
      try {
        for (let n = first; n <= end; n++) {
          ask();
          const chunk = await ahead.shift();
          if (!chunk) return;
          yield chunk;
        }
      } finally {
        // A reader that stops early (a closed download) leaves no rejection unhandled.
        for (const p of ahead) p.catch(() => undefined);
      }
    },
    async remove(name, touchedBefore) {
      const index = await readIndex(name);
      if (!index || index.touched >= touchedBefore) return false;
      await s3.delete(indexKey(name));
      await dropChunks(index.writeId, index.chunks);
      return true;
    },
    async sweepAbandoned(before) {
      const bound = pendingKey(before, '');
      const stale: string[] = [];
      for await (const key of s3.list(`${root}p/`)) {
        if (key >= bound) break;
        stale.push(key);
      }
      let dropped = 0;
      for (const key of stale) {
        const writeId = key.slice(key.lastIndexOf('/') + 1).slice(TIME_DIGITS + 1);
        // A marker naming an object whose index holds this write is a commit that stopped before its last step.
        const named = Buffer.from((await s3.get(key)) ?? new Uint8Array(0)).toString('utf8');
        if (named !== '' && (await readIndex(named))?.writeId === writeId) {
          await s3.delete(key);
          continue;
        }
        const chunks: string[] = [];
        for await (const c of s3.list(`${root}w/${writeId}/`)) chunks.push(c);
        for (const c of chunks) await s3.delete(c);
        await s3.delete(key);
        dropped += chunks.length;
      }
      return dropped;
    },
  };
}
