/**
 * Streams a file into sealed chunks and back. Writing holds one chunk of plaintext at a time (the chunk is
 * sealed once the next byte, or the end, tells whether it is the last) and hashes as it goes; reading opens
 * only the chunks a byte range covers.
 */
import { createHash } from 'node:crypto';
import { CHUNK_BYTES, chunkCount, chunkKeyOf, openChunk, sealChunk } from '../../../core/crypto/chunk-box.js';
import { fail } from '../../../core/errors.js';
import type { DocumentObjectHeader, DocumentObjectStore, DocumentObjectWriter } from './document.port.js';

export interface SealedWrite {
  readonly sha256: string;
  readonly size: number;
}

/**
 * Reads `source` to its end into `writer`, sealed under `salt`'s key.
 * @throws DomainError PAYLOAD_TOO_LARGE as soon as more than `maxBytes` arrived (the rest is not read)
 */
export async function writeSealed(
  source: AsyncIterable<Uint8Array>,
  writer: DocumentObjectWriter,
  opts: { secretKey: string; salt: Uint8Array; maxBytes: number },
): Promise<SealedWrite> {
  const key = chunkKeyOf(opts.secretKey, opts.salt);
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let filled = 0;
  let index = 0;
  let size = 0;
  for await (const piece of source) {
    size += piece.length;
    if (size > opts.maxBytes) fail('PAYLOAD_TOO_LARGE', `the file exceeds the limit of ${opts.maxBytes} bytes`);
    hash.update(piece);
    for (let at = 0; at < piece.length;) {
      if (filled === CHUNK_BYTES) {
        await writer.append(sealChunk(key, { index: index++, last: false }, chunk));
        filled = 0;
      }
      const n = Math.min(CHUNK_BYTES - filled, piece.length - at);
      chunk.set(piece.subarray(at, at + n), filled);
      filled += n;
      at += n;
    }
  }
  if (size > 0) await writer.append(sealChunk(key, { index, last: true }, chunk.subarray(0, filled)));
  return { sha256: hash.digest('hex'), size };
}

/**
 * The plaintext bytes `start`..`end` (inclusive) of an object, opened chunk by chunk.
 * @throws DomainError UNAUTHORIZED when a chunk fails authentication (wrong SECRET_KEY, altered object)
 */
export async function* readSealed(
  objects: DocumentObjectStore,
  name: string,
  header: DocumentObjectHeader,
  opts: { secretKey: string; start: number; end: number },
): AsyncGenerator<Buffer> {
  const key = chunkKeyOf(opts.secretKey, header.salt);
  const lastIndex = chunkCount(header.size) - 1;
  const first = Math.floor(opts.start / header.chunkBytes);
  const last = Math.floor(opts.end / header.chunkBytes);
  let index = first;
  for await (const sealed of objects.chunks(name, first, last)) {
    const plain = openChunk(key, { index, last: index === lastIndex }, sealed);
    const offset = index * header.chunkBytes;
    const from = Math.max(0, opts.start - offset);
    const to = Math.min(plain.length, opts.end - offset + 1);
    yield plain.subarray(from, to);
    index += 1;
  }
  if (index !== last + 1) fail('UNAUTHORIZED', `the document object ${name} lacks chunks ${index}..${last}`);
}
