/**
 * References (`$name…`, `$raw.key…`, `$tools.name(…)`) and expressions of the template language, read by
 * recursive descent straight into our tree (template-ir.ts). What the language does not hold is refused
 * where it is read; every level of nesting, and every operator of a chain, counts against MAX_NESTING.
 */
import type { BinaryOp, Expr } from './template-ir.js';
import {
  cannotParse,
  deeper,
  expect,
  lineAt,
  nested,
  refuse,
  sees,
  skipSpace,
  take,
  type Reader,
} from './template-reader.js';
import { TOOL_NAMES } from './template-tools.js';

const SAFE_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
const BLOCKED_KEYS = new Set(['constructor', 'prototype']);

const REF_START = /\$(!?)(?=[{A-Za-z_])/y;
const ID = /[A-Za-z_][A-Za-z0-9_-]*/y;
const WRAP_OPEN = /\{\s*/y;
const WRAP_CLOSE = /\s*\}/y;
const PROPERTY = /\.(?=[A-Za-z_])/y;
/** An index or a call starts only when what follows could begin its content (velocityjs's rule: else it is text). */
const INDEX_OPEN = /\[\s*(?=[-$"'0-9{[\]])/y;
const CALL_OPEN = /\(\s*(?=[$'"[{\-0-9\w()!])/y;

/** Operators by precedence, loosest first; word forms are the same operators. */
const LEVELS: readonly { readonly re: RegExp; readonly ops: Readonly<Record<string, BinaryOp>> }[] = [
  { re: /\|\||or\b/y, ops: { '||': '||', or: '||' } },
  { re: /&&|and\b/y, ops: { '&&': '&&', and: '&&' } },
  { re: /==|!=|eq\b|ne\b/y, ops: { '==': '==', '!=': '!=', eq: '==', ne: '!=' } },
  {
    re: /<=|>=|<|>|le\b|ge\b|lt\b|gt\b/y,
    ops: { '<=': '<=', '>=': '>=', '<': '<', '>': '>', le: '<=', ge: '>=', lt: '<', gt: '>' },
  },
  { re: /[+-]/y, ops: { '+': '+', '-': '-' } },
  { re: /[*/%]/y, ops: { '*': '*', '/': '/', '%': '%' } },
];
const NOT = /!(?!=)|not\b/y;
const MINUS = /-/y;
const NUMBER = /\d+(?:\.\d+)?/y;
const CONSTANT = /(?:true|false|null)\b/y;
const MAP_KEY = /[A-Za-z_][A-Za-z0-9_-]*|\d+/y;

/** A reference read where it starts (`$` at the cursor), with the text it was written as. */
export interface Reference {
  readonly expr: Expr;
  readonly quiet: boolean;
  readonly source: string;
}

/** Whether a reference starts at the cursor (else the `$` is text). */
export function atReference(r: Reader): boolean {
  return sees(r, REF_START);
}

type Step =
  | { readonly kind: 'key'; readonly key: string | number }
  | { readonly kind: 'call'; readonly name: string; readonly pos: number; readonly args: readonly Expr[] | null };

/** `$name…`, `$!name…`, `${name…}`: reads it and checks it is one the language holds. */
export function parseReference(r: Reader): Reference {
  const start = r.pos;
  const quiet = take(r, REF_START)![1] === '!';
  const wrapped = take(r, WRAP_OPEN) !== null;
  const id = take(r, ID)?.[0] ?? cannotParse(r, 'a name expected after "$"');
  if (sees(r, CALL_OPEN)) refuse(r, `"${id}(…)": only ${toolList()} can be called`, start);
  const expr = referenceExpr(r, id, readSteps(r, id), start);
  if (wrapped && take(r, WRAP_CLOSE) === null) cannotParse(r, '"}" expected');
  return { expr, quiet, source: r.src.slice(start, r.pos) };
}

/** `.key`, `[index]` and calls after a name; the arguments are read only for a call of a listed tool. */
function readSteps(r: Reader, id: string): Step[] {
  const steps: Step[] = [];
  for (;;) {
    if (take(r, PROPERTY)) {
      const pos = r.pos;
      const name = take(r, ID)![0];
      if (!sees(r, CALL_OPEN)) steps.push({ kind: 'key', key: name });
      else if (id !== 'tools' || steps.length > 0 || !TOOL_NAMES.has(name))
        return [...steps, { kind: 'call', name, pos, args: null }];
      else {
        take(r, CALL_OPEN);
        steps.push({ kind: 'call', name, pos, args: nested(r, () => argumentsUntil(r, ')')) });
      }
    } else if (take(r, INDEX_OPEN)) steps.push({ kind: 'key', key: nested(r, () => indexOf(r)) });
    else return steps;
  }
}

/** `[0]`, `[-1]`, `["key"]`, `['key']`: an index written in the template, never computed. */
function indexOf(r: Reader): string | number {
  const pos = r.pos;
  const index = parseExpr(r);
  expect(r, ']');
  if (index.kind === 'literal' && typeof index.value === 'number') return index.value;
  if (index.kind === 'literal' && typeof index.value === 'string') return dataKey(r, index.value, pos);
  return refuse(r, 'an index must be a number or a string written in the template', pos);
}

function referenceExpr(r: Reader, id: string, steps: readonly Step[], start: number): Expr {
  if (id === 'tools') return toolCall(r, steps, start);
  const path = steps.map((s) =>
    s.kind === 'key'
      ? typeof s.key === 'string'
        ? dataKey(r, s.key, start)
        : s.key
      : refuse(r, `"${s.name}(…)": only ${toolList()} can be called`, s.pos),
  );
  if (id !== 'raw') return { kind: 'lookup', name: id, path };
  const [first, ...rest] = path;
  if (typeof first !== 'string') return refuse(r, '$raw is read by key only: $raw.name', start);
  return { kind: 'raw', path: [first, ...rest] };
}

/** `$tools.name(…)`: a listed tool, called, and nothing after it. */
function toolCall(r: Reader, steps: readonly Step[], start: number): Expr {
  const [step, ...more] = steps;
  if (step?.kind !== 'call' || step.args === null) return refuse(r, `$tools is only called: ${toolList()}`, start);
  if (more.length > 0) return refuse(r, `nothing can follow $tools.${step.name}(…)`, start);
  return { kind: 'tool', name: step.name, args: step.args };
}

/** Expressions separated by commas or blanks, up to `close` (taken). */
export function argumentsUntil(r: Reader, close: string): Expr[] {
  const args: Expr[] = [];
  for (;;) {
    take(r, /[\s,]*/y);
    if (r.src.startsWith(close, r.pos)) {
      r.pos += close.length;
      return args;
    }
    if (r.pos >= r.src.length) cannotParse(r, `"${close}" expected`);
    args.push(parseExpr(r));
  }
}

function dataKey(r: Reader, name: string, pos: number): string {
  if (!SAFE_KEY.test(name) || BLOCKED_KEYS.has(name)) return refuse(r, `property "${name}" cannot be read`, pos);
  return name;
}

function toolList(): string {
  return [...TOOL_NAMES].map((t) => `$tools.${t}(…)`).join(', ');
}

/** An expression: `||` binds loosest, then `&&`, equality, comparison, `+ -`, `* / %`, then `! not -`. */
export function parseExpr(r: Reader): Expr {
  const depth = r.shared.depth;
  deeper(r);
  try {
    return binaryAt(r, 0);
  } finally {
    r.shared.depth = depth;
  }
}

/**
 * A chain of operators of one level, left-associative. Each operator takes the chain one level deeper
 * (the tree it builds is as deep as the chain is long), so long chains are refused like deep nesting.
 */
function binaryAt(r: Reader, level: number): Expr {
  const { re, ops } = LEVELS[level]!;
  const depth = r.shared.depth;
  try {
    let left = operandOf(r, level);
    for (;;) {
      skipSpace(r);
      const op = take(r, re);
      if (!op) return left;
      deeper(r);
      left = { kind: 'binary', op: ops[op[0]]!, left, right: operandOf(r, level) };
    }
  } finally {
    r.shared.depth = depth;
  }
}

function operandOf(r: Reader, level: number): Expr {
  return level + 1 < LEVELS.length ? binaryAt(r, level + 1) : unary(r);
}

function unary(r: Reader): Expr {
  skipSpace(r);
  if (take(r, NOT)) return nested(r, () => ({ kind: 'not', operand: unary(r) }));
  if (take(r, MINUS)) {
    const operand = nested(r, () => unary(r));
    if (operand.kind === 'literal' && typeof operand.value === 'number')
      return { kind: 'literal', value: -operand.value };
    return { kind: 'minus', operand };
  }
  return primary(r);
}

function primary(r: Reader): Expr {
  const c = r.src[r.pos];
  if (c === '$' && atReference(r)) return parseReference(r).expr;
  if (c === '(') return nested(r, () => parenthesized(r));
  if (c === '[') return nested(r, () => listOrRange(r));
  if (c === '{') return nested(r, () => mapOf(r));
  if (c === '"' || c === "'") return stringAt(r);
  const number = take(r, NUMBER);
  if (number) return { kind: 'literal', value: numberOf(r, number[0]) };
  const constant = take(r, CONSTANT);
  if (constant)
    return { kind: 'literal', value: constant[0] === 'true' ? true : constant[0] === 'false' ? false : null };
  return cannotParse(r, 'a value expected');
}

function parenthesized(r: Reader): Expr {
  r.pos += 1;
  const inner = parseExpr(r);
  expect(r, ')');
  return inner;
}

/** `[]`, `[a, b]` or `[from..to]`. */
function listOrRange(r: Reader): Expr {
  r.pos += 1;
  skipSpace(r);
  if (take(r, /\]/y)) return { kind: 'list', items: [] };
  const first = parseExpr(r);
  skipSpace(r);
  if (take(r, /\.\./y)) {
    const to = parseExpr(r);
    expect(r, ']');
    return { kind: 'range', from: first, to };
  }
  const items = [first];
  while ((skipSpace(r), take(r, /,/y))) items.push(parseExpr(r));
  expect(r, ']');
  return { kind: 'list', items };
}

/** `{}` or `{"key": value, …}`; a key is a string, a name or a number written in the template. */
function mapOf(r: Reader): Expr {
  r.pos += 1;
  skipSpace(r);
  const entries: (readonly [string, Expr])[] = [];
  if (take(r, /\}/y)) return { kind: 'map', entries };
  do {
    skipSpace(r);
    const key = mapKey(r);
    expect(r, ':');
    entries.push([key, parseExpr(r)]);
    skipSpace(r);
  } while (take(r, /,/y));
  expect(r, '}');
  return { kind: 'map', entries };
}

function mapKey(r: Reader): string {
  const c = r.src[r.pos];
  if (c === '"' || c === "'") return quoted(r).value;
  return take(r, MAP_KEY)?.[0] ?? cannotParse(r, 'a key expected');
}

/**
 * `'text'` is taken as written; `"text"` with `$` or `#` in it is parsed as a template of its own (its
 * lines counted from the line it starts on), one level deeper.
 */
function stringAt(r: Reader): Expr {
  const line = lineAt(r);
  const { value, evaluated } = quoted(r);
  if (!evaluated || (!value.includes('$') && !value.includes('#'))) return { kind: 'literal', value };
  return { kind: 'interpolated', parts: nested(r, () => r.shared.parseString(value, line)) };
}

/**
 * A quoted string at the cursor. Its end is the first quote not escaped by a backslash; `\"` (or `\'`)
 * inside stands for the quote.
 */
function quoted(r: Reader): { value: string; evaluated: boolean } {
  const quote = r.src[r.pos]!;
  const start = r.pos;
  let i = start + 1;
  for (; i < r.src.length && r.src[i] !== quote; i++) if (r.src[i] === '\\' && r.src[i + 1] === quote) i++;
  if (i >= r.src.length) cannotParse(r, 'a string is not closed', start);
  r.pos = i + 1;
  return { value: r.src.slice(start + 1, i).replaceAll(`\\${quote}`, quote), evaluated: quote === '"' };
}

function numberOf(r: Reader, text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? n : refuse(r, `the number ${text} is out of range`);
}

/** A plain `$name` at the cursor (a #set target, a loop variable, a macro parameter), or null. */
export function plainName(r: Reader): { name: string; pathFollows: boolean } | null {
  if (!take(r, /\$!?(?=[A-Za-z_])/y)) return null;
  const name = take(r, ID)![0];
  return { name, pathFollows: sees(r, /[.[(]/y) };
}
