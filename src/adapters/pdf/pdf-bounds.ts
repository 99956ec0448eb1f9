/**
 * A cheap look at an untrusted PDF before any PDF library reads it (issue 32): one linear pass of our own over
 * the bytes, the object and cross-reference streams decoded with a capped inflate, and the page tree walked
 * with a visited set. It refuses what would make pdf-lib loop, recurse or allocate without end: an xref that
 * claims more objects than the file can hold, too many objects, a stream that inflates past its cap, arrays
 * and dictionaries nested too deep, a page tree that loops, shares a node, is too deep or whose `/Count`
 * lies, too many pages.
 *
 * It reads the file as pdf-lib does, from the start to the end (the last definition of an object wins), not
 * through the xref: pdf-lib ignores the offsets too. It is a bound, not a validator: a file it cannot make
 * sense of (no catalog, no page tree) is `unreadable`, which the upload lets through (a viewer may repair
 * it) and the signed copy does not. What it misses is still bounded by the worker that runs pdf-lib
 * (pdf-worker-pool.ts: memory and time).
 */
import { inflateSync, constants as zlib } from 'node:zlib';

export interface PdfBounds {
  /** Objects in the file, object streams included, and the largest xref `/Size`. */
  readonly maxObjects: number;
  /** Decoded bytes of one object or cross-reference stream. */
  readonly maxStreamBytes: number;
  /** Decoded bytes of all of them together. */
  readonly maxDecodedBytes: number;
  /** Nesting of arrays and dictionaries inside one object. */
  readonly maxNesting: number;
  readonly maxPages: number;
  /** Levels of the page tree. */
  readonly maxTreeDepth: number;
}

export const PDF_BOUNDS: PdfBounds = {
  maxObjects: 50_000,
  maxStreamBytes: 32 * 1024 * 1024,
  maxDecodedBytes: 128 * 1024 * 1024,
  maxNesting: 100,
  maxPages: 10_000,
  maxTreeDepth: 32,
};

/** `ok` with its page count; `refused`: over a bound (hostile or too big); `unreadable`: no structure found. */
export type PdfInspection =
  | { readonly kind: 'ok'; readonly pages: number }
  | { readonly kind: 'refused' | 'unreadable'; readonly reason: string };

class Verdict extends Error {
  constructor(
    readonly kind: 'refused' | 'unreadable',
    reason: string,
  ) {
    super(reason);
  }
}
const refuse = (reason: string): never => {
  throw new Verdict('refused', reason);
};
const unreadable = (reason: string): never => {
  throw new Verdict('unreadable', reason);
};

/** The structure of `bytes` checked against `bounds`; never throws. */
export function inspectPdf(bytes: Uint8Array, bounds: PdfBounds = PDF_BOUNDS): PdfInspection {
  try {
    const file = scanFile(bytes, bounds);
    return { kind: 'ok', pages: countPages(file, bounds) };
  } catch (err) {
    if (err instanceof Verdict) return { kind: err.kind, reason: err.message };
    throw err;
  }
}

/** Why the signed copy cannot be made of `bytes` (their structure refused or not found), or null. */
export function updateRefusal(bytes: Uint8Array, bounds: PdfBounds): string | null {
  const seen = inspectPdf(bytes, bounds);
  if (seen.kind === 'ok') return null;
  return `the uploaded PDF ${seen.kind === 'refused' ? 'is refused' : 'cannot be read'}: ${seen.reason}`;
}

// ---------------------------------------------------------------------------------------------------------
// Tokens

const enum T {
  End,
  Num,
  Name,
  Str,
  Open,
  Close,
  DictOpen,
  DictClose,
  Word,
}

const WHITE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITE[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A lexer over `buf` from `pos`; `text` and `num` describe the last token. */
class Lexer {
  text = '';
  num = 0;
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
  ) {}

  next(): T {
    const b = this.buf;
    for (;;) {
      while (this.pos < b.length && WHITE[b[this.pos]!]) this.pos++;
      if (this.pos >= b.length) return T.End;
      if (b[this.pos] !== 0x25) break;
      while (this.pos < b.length && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
    }
    const c = b[this.pos]!;
    if (c === 0x28) return this.string();
    if (c === 0x5b || c === 0x5d) return (this.pos++, c === 0x5b ? T.Open : T.Close);
    if (c === 0x3c && b[this.pos + 1] === 0x3c) return ((this.pos += 2), T.DictOpen);
    if (c === 0x3e && b[this.pos + 1] === 0x3e) return ((this.pos += 2), T.DictClose);
    if (c === 0x3c) {
      const end = b.indexOf(0x3e, this.pos);
      this.pos = end < 0 ? b.length : end + 1;
      return T.Str;
    }
    if (c === 0x2f) {
      const start = ++this.pos;
      this.skipRegular();
      this.text = latin1(b, start, this.pos);
      return T.Name;
    }
    if (DELIM[c]) return (this.pos++, T.Word);
    const start = this.pos;
    this.skipRegular();
    this.text = this.pos - start <= 32 ? latin1(b, start, this.pos) : '';
    if (NUMBER.test(this.text)) {
      this.num = Number(this.text);
      return T.Num;
    }
    return T.Word;
  }

  private skipRegular(): void {
    const b = this.buf;
    while (this.pos < b.length && !WHITE[b[this.pos]!] && !DELIM[b[this.pos]!]) this.pos++;
  }

  /** A literal string: balanced parentheses, backslash escapes. */
  private string(): T {
    const b = this.buf;
    let open = 0;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) this.pos++;
      else if (c === 0x28) open++;
      else if (c === 0x29 && --open === 0) break;
    }
    return T.Str;
  }
}

const latin1 = (b: Uint8Array, start: number, end: number) =>
  Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('latin1');

// ---------------------------------------------------------------------------------------------------------
// The file's objects, found in one pass

interface Span {
  readonly start: number;
  readonly end: number;
}
interface ObjectAt {
  readonly buf: Uint8Array;
  readonly pos: number;
  /** Where it is defined in the file (an object stream's objects: where the stream is); the last one wins. */
  readonly order: number;
  stream?: Span;
}
interface ScannedFile {
  readonly objects: Map<number, ObjectAt>;
  /** The trailer dictionaries and the cross-reference streams' dictionaries, in file order. */
  readonly trailers: Dict[];
  readonly cache: Map<number, Value>;
}

const ENDSTREAM = Buffer.from('endstream', 'latin1');

/** Every `N G obj` of the file and its stream, the trailers, the nesting checked; then the object streams opened. */
function scanFile(bytes: Uint8Array, bounds: PdfBounds): ScannedFile {
  const file: ScannedFile = { objects: new Map(), trailers: [], cache: new Map() };
  const trailerAt = scanBody(bytes, bounds, file.objects);
  for (const pos of trailerAt) {
    const value = parseValue(new Lexer(bytes, pos), bounds.maxNesting);
    if (value instanceof Map) file.trailers.push(value);
  }
  for (const t of file.trailers) checkSize(t, bytes.length, bounds);
  openStreams(file, bytes, bounds);
  return file;
}

function scanBody(bytes: Uint8Array, bounds: PdfBounds, objects: Map<number, ObjectAt>): number[] {
  const lex = new Lexer(bytes, 0);
  const trailers: number[] = [];
  let n1 = -1;
  let n2 = -1;
  let current: ObjectAt | null = null;
  let inside = false;
  let depth = 0;
  for (let t = lex.next(); t !== T.End; t = lex.next()) {
    if (t === T.Open || t === T.DictOpen) {
      if (inside && ++depth > bounds.maxNesting)
        refuse(`arrays and dictionaries nested deeper than ${bounds.maxNesting}`);
    } else if (t === T.Close || t === T.DictClose) depth = Math.max(0, depth - 1);
    else if (t === T.Word) {
      const word = lex.text;
      if (word === 'obj' && n2 >= 0 && n1 >= 0) {
        current = { buf: bytes, pos: lex.pos, order: lex.pos };
        objects.set(n2, current);
        if (objects.size > bounds.maxObjects) refuse(`more than ${bounds.maxObjects} objects`);
        inside = true;
        depth = 0;
      } else if (word === 'stream') {
        const start = lex.pos + (bytes[lex.pos] === 13 ? 2 : 1);
        const end = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(ENDSTREAM, start);
        if (current && !current.stream) current.stream = { start, end: end < 0 ? bytes.length : end };
        lex.pos = end < 0 ? bytes.length : end + ENDSTREAM.length;
      } else if (word === 'trailer') {
        trailers.push(lex.pos);
        inside = true;
        depth = 0;
      } else if (word === 'xref') checkXrefTable(lex, bytes.length, bounds);
      else if (word === 'endobj' || word === 'startxref') {
        current = null;
        inside = false;
      }
    }
    n2 = n1;
    n1 = t === T.Num && Number.isInteger(lex.num) && lex.num >= 0 ? lex.num : -1;
  }
  return trailers;
}

/** A classic table's subsections: each `start count` header must fit the bytes left (20 bytes an entry). */
function checkXrefTable(lex: Lexer, size: number, bounds: PdfBounds): void {
  const save = lex.pos;
  if (lex.next() !== T.Num || lex.next() !== T.Num) return void (lex.pos = save);
  const count = lex.num;
  if (count > bounds.maxObjects || count * 18 > size - lex.pos)
    refuse(`a cross-reference table claims ${count} entries, more than the file can hold`);
  lex.pos = save;
}

// ---------------------------------------------------------------------------------------------------------
// Values

type Value = number | Name | Ref | Value[] | Dict | null;
type Dict = Map<string, Value>;
class Name {
  constructor(readonly name: string) {}
}
class Ref {
  constructor(readonly num: number) {}
}

/** One value at the lexer's position, arrays and dictionaries at most `depth` deep. */
function parseValue(lex: Lexer, depth: number): Value {
  const t = lex.next();
  if (t === T.Num) return numberOrRef(lex);
  if (t === T.Name) return new Name(lex.text);
  if (t === T.Open || t === T.DictOpen) {
    if (depth <= 0) refuse('arrays and dictionaries nested too deep');
    return t === T.Open ? parseArray(lex, depth - 1) : parseDict(lex, depth - 1);
  }
  return null;
}

function numberOrRef(lex: Lexer): Value {
  const num = lex.num;
  const save = lex.pos;
  if (Number.isInteger(num) && num >= 0 && lex.next() === T.Num && lex.next() === T.Word && lex.text === 'R')
    return new Ref(num);
  lex.pos = save;
  return num;
}

function parseArray(lex: Lexer, depth: number): Value[] {
  const items: Value[] = [];
  for (;;) {
    const save = lex.pos;
    const t = lex.next();
    if (t === T.Close || t === T.End || t === T.DictClose) return items;
    lex.pos = save;
    items.push(parseValue(lex, depth));
    if (lex.pos === save) return items;
  }
}

function parseDict(lex: Lexer, depth: number): Dict {
  const dict: Dict = new Map();
  for (;;) {
    const t = lex.next();
    if (t !== T.Name) return dict;
    const key = lex.text;
    dict.set(key, parseValue(lex, depth));
  }
}

function lookup(file: ScannedFile, value: Value, bounds: PdfBounds): Value {
  if (!(value instanceof Ref)) return value;
  const cached = file.cache.get(value.num);
  if (cached !== undefined) return cached;
  const at = file.objects.get(value.num);
  const parsed = at ? parseValue(new Lexer(at.buf, at.pos), bounds.maxNesting) : null;
  file.cache.set(value.num, parsed);
  return parsed;
}

const nameOf = (v: Value | undefined) => (v instanceof Name ? v.name : undefined);
const intOf = (v: Value | undefined) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

// ---------------------------------------------------------------------------------------------------------
// Streams pdf-lib decodes when it loads a file: object streams and cross-reference streams

function openStreams(file: ScannedFile, bytes: Uint8Array, bounds: PdfBounds): void {
  let decodedTotal = 0;
  for (const [num, at] of [...file.objects]) {
    if (!at.stream || at.buf !== bytes) continue;
    const dict = parseValue(new Lexer(bytes, at.pos), bounds.maxNesting);
    if (!(dict instanceof Map)) continue;
    const type = nameOf(dict.get('Type'));
    if (type !== 'ObjStm' && type !== 'XRef') continue;
    const room = Math.min(bounds.maxStreamBytes, bounds.maxDecodedBytes - decodedTotal);
    const data = decode(num, dict, bytes.subarray(at.stream.start, at.stream.end), room, bounds);
    decodedTotal += data.length;
    if (type === 'XRef') {
      file.trailers.push(dict);
      checkSize(dict, bytes.length, bounds);
      checkXrefStream(num, dict, data.length, bounds);
    } else openObjectStream(file, { num, order: at.order }, dict, data, bounds);
  }
}

/** The stream's bytes inflated, at most `room` of them. */
function decode(num: number, dict: Dict, raw: Uint8Array, room: number, bounds: PdfBounds): Uint8Array {
  const filter = dict.get('Filter');
  const filters = Array.isArray(filter) ? filter.map(nameOf) : filter == null ? [] : [nameOf(filter)];
  if (filters.length === 0) return raw;
  if (filters.length > 1 || filters[0] !== 'FlateDecode')
    refuse(`object ${num}: an object or cross-reference stream filtered by ${filters.join(', ')} (FlateDecode only)`);
  try {
    return inflateSync(raw, { maxOutputLength: Math.max(1, room), finishFlush: zlib.Z_SYNC_FLUSH });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      refuse(
        room < bounds.maxStreamBytes
          ? `the object and cross-reference streams decode to more than ${bounds.maxDecodedBytes} bytes`
          : `object ${num}: a stream that decodes to more than ${bounds.maxStreamBytes} bytes`,
      );
    return unreadable(`object ${num}: a stream that cannot be inflated`);
  }
}

/** `/Size` of a trailer or xref stream: at most one object per byte of the file, and at most `maxObjects`. */
function checkSize(dict: Dict, fileSize: number, bounds: PdfBounds): void {
  const size = dict.get('Size');
  if (typeof size === 'number' && (size > bounds.maxObjects || size > fileSize))
    refuse(
      `the cross-reference /Size ${size} is more than ${Math.min(bounds.maxObjects, fileSize)} (objects the file can hold)`,
    );
}

/** `/W` and `/Index` against the decoded bytes: each entry claimed must be there. */
function checkXrefStream(num: number, dict: Dict, decoded: number, bounds: PdfBounds): void {
  const w = dict.get('W');
  const widths = Array.isArray(w) ? w.map(intOf) : [];
  if (widths.length !== 3 || widths.some((x) => x === undefined || x > 8))
    refuse(`object ${num}: a cross-reference stream whose /W is not three widths of at most 8 bytes`);
  const width = (widths as number[]).reduce((a, b) => a + b, 0);
  const size = intOf(dict.get('Size')) ?? 0;
  const index = dict.get('Index');
  const pairs = Array.isArray(index) ? index.map(intOf) : [0, size];
  let entries = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const count = pairs[i + 1];
    if (pairs[i] === undefined || count === undefined) refuse(`object ${num}: an /Index that is not whole numbers`);
    entries += count!;
  }
  if (entries > bounds.maxObjects || entries * width > decoded)
    refuse(
      `object ${num}: a cross-reference stream claims ${entries} entries, its data holds ${Math.floor(decoded / Math.max(1, width))}`,
    );
}

/** The objects of an object stream, added to the file's (its header: `/N` pairs of number and offset). */
function openObjectStream(
  file: ScannedFile,
  { num, order }: { num: number; order: number },
  dict: Dict,
  data: Uint8Array,
  bounds: PdfBounds,
): void {
  const n = intOf(dict.get('N')) ?? 0;
  const first = intOf(dict.get('First')) ?? 0;
  if (n > bounds.maxObjects || n * 4 > data.length)
    refuse(`object ${num}: an object stream claims ${n} objects, its data holds fewer`);
  const lex = new Lexer(data, 0);
  let depth = 0;
  for (let t = lex.next(); t !== T.End; t = lex.next()) {
    if (t === T.Open || t === T.DictOpen) {
      if (++depth > bounds.maxNesting)
        refuse(`object ${num}: arrays and dictionaries nested deeper than ${bounds.maxNesting}`);
    } else if (t === T.Close || t === T.DictClose) depth = Math.max(0, depth - 1);
  }
  lex.pos = 0;
  for (let i = 0; i < n; i++) {
    if (lex.next() !== T.Num) break;
    const objNum = lex.num;
    if (lex.next() !== T.Num) break;
    if ((file.objects.get(objNum)?.order ?? -1) < order)
      file.objects.set(objNum, { buf: data, pos: first + lex.num, order });
    if (file.objects.size > bounds.maxObjects) refuse(`more than ${bounds.maxObjects} objects`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The page tree

/** The pages of the last trailer's catalog, each node visited once; `/Count` of each node checked. */
function countPages(file: ScannedFile, bounds: PdfBounds): number {
  const root = [...file.trailers]
    .reverse()
    .find((t) => t.get('Root') instanceof Ref)
    ?.get('Root');
  if (!root) return unreadable('no trailer names a catalog (/Root)');
  const catalog = lookup(file, root, bounds);
  const pages = catalog instanceof Map ? catalog.get('Pages') : undefined;
  if (!(pages instanceof Ref)) return unreadable('the catalog has no page tree (/Pages)');
  const pageCount = walk(file, pages, { visited: new Set(), leaves: 0 }, 1, bounds);
  if (pageCount === 0) unreadable('the page tree has no page');
  return pageCount;
}

function walk(
  file: ScannedFile,
  ref: Ref,
  seen: { visited: Set<number>; leaves: number },
  depth: number,
  bounds: PdfBounds,
): number {
  if (depth > bounds.maxTreeDepth) refuse(`the page tree is deeper than ${bounds.maxTreeDepth} levels`);
  if (seen.visited.has(ref.num)) refuse(`the page tree reaches object ${ref.num} twice (a loop or a shared node)`);
  seen.visited.add(ref.num);
  const node = lookup(file, ref, bounds);
  if (!(node instanceof Map)) return unreadable(`page tree node ${ref.num} is not a dictionary`);
  const kids = lookup(file, node.get('Kids') ?? null, bounds);
  if (nameOf(node.get('Type')) === 'Page' || !Array.isArray(kids)) {
    if (++seen.leaves > bounds.maxPages) refuse(`more than ${bounds.maxPages} pages`);
    return 1;
  }
  let pages = 0;
  for (const kid of kids) {
    if (!(kid instanceof Ref)) return unreadable(`page tree node ${ref.num} has a kid that is not a reference`);
    pages += walk(file, kid, seen, depth + 1, bounds);
  }
  const count = lookup(file, node.get('Count') ?? null, bounds);
  if (count !== pages) refuse(`page tree node ${ref.num} says /Count ${String(count)} and holds ${pages} pages`);
  return pages;
}
