/**
 * Bounds on what reading a PDF given to a verifier may cost (issue 32, row 8): a 1 MB object stream that inflates
 * to 1 GiB took 17.6 s and 2.2 GB before anything was checked. A PDF library decodes every object stream and
 * cross-reference stream when it loads a file, and an attachment when asked for it, with no limit on the output;
 * so before the library sees the file its streams of those two kinds are inflated here, counting the bytes and
 * stopping at the cap, and the attachment is inflated here under its own cap.
 *
 * Pure (no I/O): inflation is the platform's `DecompressionStream` (Node and browsers alike), read chunk by chunk
 * and cancelled as soon as the count passes the cap, so the work and memory stay near the cap whatever the input.
 */

/** Decoded bytes of all object and cross-reference streams a verifier lets a PDF library load. */
export const MAX_STRUCTURE_BYTES = 64 * 1024 * 1024;
/** Decoded bytes of one attached file (a proof bundle is some kilobytes; a large one some megabytes). */
export const MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024;

/** A decoding that went past its cap: the input is refused, not read further. */
export class DecodeBoundError extends Error {
  readonly code = 'DECODE_BOUND';
  constructor(what: string, limit: number, unit = 'bytes once decoded') {
    super(`${what}: more than ${limit} ${unit}, not read`);
  }
}

/**
 * The zlib (FlateDecode) data `data` inflated, or the bytes inflated before it ends or fails (a PDF's stream
 * may carry junk after its end; the library that reads it decides). Stops reading past `limit`.
 * @throws DecodeBoundError when the output passes `limit` bytes
 */
export async function inflateBounded(data: Uint8Array, limit: number, what = 'a stream'): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) throw new DecodeBoundError(what, limit);
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof DecodeBoundError) {
      await reader.cancel().catch(() => undefined);
      throw err;
    }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.length) - c.length);
  return out;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
/** A stream's dictionary naming its kind, up to its `stream` keyword, never across another `/Type` (linear scan). */
const STREAM_OF_KIND = /\/Type\s*\/(ObjStm|XRef)\b(?:(?!\/Type)[^]){0,2048}?\bstream(\r\n|\n|\r)/g;

/**
 * The bytes of each FlateDecode object stream and cross-reference stream of `pdf`, as written between
 * `stream` and `endstream` (found by scanning, whatever the file's cross-references say: those are what a
 * hostile file lies about). Each one ends at its `endstream` or where the next one's dictionary begins, so the
 * pieces never overlap and the whole costs one pass over the file.
 */
function structureStreams(pdf: Uint8Array): Uint8Array[] {
  const text = latin1(pdf);
  const matches = [...text.matchAll(STREAM_OF_KIND)];
  const found: Uint8Array[] = [];
  let endstream: number | null = null; // the first `endstream` at or after the current stream (-1: none left)
  for (const [i, m] of matches.entries()) {
    const start = m.index + m[0].length;
    const next = matches[i + 1]?.index ?? pdf.length;
    if (endstream === null || (endstream !== -1 && endstream < start)) endstream = text.indexOf('endstream', start);
    const end = Math.min(endstream === -1 ? pdf.length : endstream, next);
    if (/\/FlateDecode\b/.test(m[0])) found.push(pdf.subarray(start, end));
  }
  return found;
}

/**
 * Checks that the object and cross-reference streams of `pdf` decode, all together, to at most `limit` bytes:
 * what a PDF library will inflate when it loads the file.
 * @throws DecodeBoundError when they decode to more
 */
export async function checkStructureBudget(pdf: Uint8Array, limit: number = MAX_STRUCTURE_BYTES): Promise<void> {
  checkXrefSizes(pdf);
  let left = limit;
  for (const data of structureStreams(pdf)) {
    try {
      left -= (await inflateBounded(data, left)).length;
    } catch (err) {
      if (err instanceof DecodeBoundError) throw new DecodeBoundError("the PDF's object streams", limit);
      throw err;
    }
  }
}

/** A cross-reference stream's dictionary, from the `obj` before its `/Type /XRef` to its `stream` keyword. */
const XREF_DICT = /\bobj\b(?:(?!\bobj\b)[^]){0,2048}?\/Type\s*\/XRef\b(?:(?!\/Type)[^]){0,2048}?\bstream\b/g;

/**
 * Refuses a cross-reference stream that declares more entries (`/Size`, or a subsection count of `/Index`) than
 * the file has bytes: a PDF library walks every declared entry when it loads the file (pdf-lib looped 10⁹ times,
 * to 3.2 GB, on a 473-byte file), and no real file has more objects than bytes. One pass over the file.
 * @throws DecodeBoundError naming the count and the file's size
 */
function checkXrefSizes(pdf: Uint8Array): void {
  for (const [dict] of latin1(pdf).matchAll(XREF_DICT)) {
    const size = Number(/\/Size\s+(\d{1,15})/.exec(dict)?.[1] ?? 0);
    const index = /\/Index\s*\[([\d\s]{0,4096})\]/.exec(dict)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
    const counts = [size, ...index.filter((_, i) => i % 2 === 1)];
    if (counts.some((n) => n > pdf.length))
      throw new DecodeBoundError(
        "a cross-reference stream's /Size or /Index",
        pdf.length,
        'entries (the file has fewer bytes)',
      );
  }
}
