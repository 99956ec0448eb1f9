/**
 * The data one render sees, built for that render from its variables: strings, finite numbers, booleans,
 * null, lists and null-prototype maps, all frozen. Anything else a caller might pass (a function, a class
 * instance, a symbol) becomes null, so no JavaScript object of the caller reaches a template.
 */
import type { DataMap, Value } from './template-ir.js';

const MARKUP = /[&<>"']/;
const ENTITY = /&(amp|lt|gt|quot|#39);/;
/** Deeper nesting than this in a render's variables is cut to null (the vars of a request are flat). */
const MAX_DEPTH = 16;

/** `& < > " '` as entities (native replacements, no callback per character: values may be long). */
export function escapeHtml(text: string): string {
  if (!MARKUP.test(text)) return text;
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** {@link escapeHtml} undone (`&amp;` last, so `&amp;lt;` gives `&lt;`). */
export function unescapeHtml(text: string): string {
  if (!ENTITY.test(text)) return text;
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/**
 * The number of keys of each map made here, stored on it when it is made (under a symbol: no template can
 * name it, and `Object.keys` and `Object.values` do not list it). A template's truth test of a map reads it in constant
 * time, never by listing the keys (issue 32: a map of 1,900 keys in dictionary mode, tested 46,000 times,
 * held the event loop 23 s).
 */
const SIZE = Symbol('size');

export function mapSize(map: DataMap): number {
  return (map as unknown as { readonly [SIZE]?: number })[SIZE] ?? Object.keys(map).length;
}

function sealed(map: Record<string, Value>, size: number): DataMap {
  (map as { [SIZE]?: number })[SIZE] = size;
  return Object.freeze(map);
}

/**
 * A null-prototype, frozen map of these entries. Plain assignment is safe on it: with no prototype there
 * is no setter to call, and even `__proto__` becomes an ordinary own key.
 */
export function dataMap(entries: Iterable<readonly [string, Value]>): DataMap {
  const map = Object.create(null) as Record<string, Value>;
  let size = 0;
  for (const [key, value] of entries) {
    if (!hasKey(map, key)) size++;
    map[key] = value;
  }
  return sealed(map, size);
}

/** How values are copied for a render: HTML-escaped (`escape`, for HTML content) or as given. */
export interface CopyOptions {
  readonly escape: boolean;
}

/**
 * The data of one render: a copy of `value`, HTML-escaped when `escape`, frozen, with null prototypes.
 * `size`, when given, is increased by the copy's characters plus one per value.
 */
export function toData(value: unknown, opts: CopyOptions, depth = 0, size = { n: 0 }): Value {
  const { escape } = opts;
  size.n += 1;
  if (typeof value === 'string') {
    const text = escape ? escapeHtml(value) : value;
    size.n += text.length;
    return text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) return Object.freeze(value.map((v: unknown) => toData(v, opts, depth + 1, size)));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return null;
  const map = Object.create(null) as Record<string, Value>;
  const keys = Object.keys(value);
  for (const key of keys) map[key] = toData((value as Record<string, unknown>)[key], opts, depth + 1, size);
  return sealed(map, keys.length);
}

/** The variables of one render, as the template reads them. */
export interface RenderVars {
  /** The value of `name` (null when there is none), copied by {@link toData} the first time it is read. */
  read(name: string): Value;
}

/**
 * The variables of one render, each copied into data (escaped in HTML) only when the template first reads
 * it, then kept for the rest of the render. `onCopy` is told the size of each copy, so what a render reads
 * counts in its budget and what it never reads costs nothing (issue 32: a 200 KB value escaped again for
 * each of 2,400 trial renders that never read it took 20 s of CPU).
 */
export function renderVars(vars: object, opts: CopyOptions, onCopy: (size: number) => void): RenderVars {
  const copies = new Map<string, Value>();
  return {
    read(name) {
      const known = copies.get(name);
      if (known !== undefined) return known;
      const size = { n: 0 };
      const value = Object.hasOwn(vars, name) ? toData((vars as Record<string, unknown>)[name], opts, 0, size) : null;
      copies.set(name, value);
      onCopy(size.n);
      return value;
    },
  };
}

/** True when `map` has `key` as its own property (never through a prototype). */
export function hasKey(map: DataMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

export function isDataMap(value: Value | undefined): value is DataMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
