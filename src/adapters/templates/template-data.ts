/**
 * The data one render sees, built for that render from its variables: strings, finite numbers, booleans,
 * null, lists and null-prototype maps, all frozen. Anything else a caller might pass (a function, a class
 * instance, a symbol) becomes null, so no JavaScript object of the caller reaches a template.
 */
import type { DataMap, Value } from './template-ir.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const REVERSE: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const MARKUP = /[&<>"']/;
/** Deeper nesting than this in a render's variables is cut to null (the vars of a request are flat). */
const MAX_DEPTH = 16;

export function escapeHtml(text: string): string {
  if (!MARKUP.test(text)) return text;
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export function unescapeHtml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => REVERSE[entity]!);
}

/**
 * A null-prototype, frozen map of these entries. Plain assignment is safe on it: with no prototype there
 * is no setter to call, and even `__proto__` becomes an ordinary own key.
 */
export function dataMap(entries: Iterable<readonly [string, Value]>): DataMap {
  const map = Object.create(null) as Record<string, Value>;
  for (const [key, value] of entries) map[key] = value;
  return Object.freeze(map);
}

/** The data of one render: a copy of `value`, HTML-escaped when `escape`, frozen, with null prototypes. */
export function toData(value: unknown, escape: boolean, depth = 0): Value {
  if (typeof value === 'string') return escape ? escapeHtml(value) : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) return Object.freeze(value.map((v: unknown) => toData(v, escape, depth + 1)));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return null;
  const map = Object.create(null) as Record<string, Value>;
  for (const key of Object.keys(value)) map[key] = toData((value as Record<string, unknown>)[key], escape, depth + 1);
  return Object.freeze(map);
}

/** True when `map` has `key` as its own property (never through a prototype). */
export function hasKey(map: DataMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

export function isDataMap(value: Value | undefined): value is DataMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
