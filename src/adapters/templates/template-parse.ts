/**
 * Our own parser of the template language (docs/templates.md): from the source straight to our tree
 * (template-ir.ts), accepting only that language and refusing everything else with INVALID_TEMPLATE naming
 * the template and the line. It reads each character a bounded number of times (a string inside a string is
 * read once per level, at most MAX_NESTING levels), so its time is linear in the source's length, and its
 * recursion is bounded by MAX_NESTING. It follows velocityjs's reading of the language (which text is a
 * reference, which line break a directive swallows), which it replaced as the parser: velocityjs's parser
 * took time growing with the square of a template's length (issue 32).
 */
import { fail } from '../../core/errors.js';
import type { Expr, Node, Program } from './template-ir.js';
import { argumentsUntil, atReference, parseExpr, parseReference, plainName } from './template-parse-expr.js';
import {
  cannotParse,
  expect,
  lineAt,
  nested,
  reader,
  refuse,
  skipSpace,
  take,
  type Reader,
  type Shared,
} from './template-reader.js';

/** Names the template may read but never assign, loop over or take as a macro parameter. */
const RESERVED = new Set(['tools', 'raw', 'foreach', 'velocityCount']);
const NOT_AVAILABLE = new Set(['include', 'parse', 'evaluate', 'define', 'stop', 'break']);
const SPECIAL = /[$#]/g;
const WORD = /[A-Za-z][A-Za-z0-9_]*/y;
const CALL = /([A-Za-z][A-Za-z0-9_-]*) *\(/y;
const OPEN = / *\(/y;
const LINE_AFTER_DIRECTIVE = /[ \t]*\n/y;

/** What ends a run of nodes: the end of the text, or a directive that closes or divides a block. */
type Stop =
  | { readonly kind: 'eof' | 'end' | 'else'; readonly pos: number }
  | { readonly kind: 'elseif'; readonly pos: number; readonly condition: Expr };

/** What a `#` starts: a node, a stop, text, or nothing (a comment, a macro definition). */
type HashResult = Node | Stop | { readonly kind: 'text'; readonly text: string } | null;

/**
 * Parses a template into our tree.
 * @throws DomainError INVALID_TEMPLATE naming `label` and the line at fault
 */
export function parseProgram(source: string, label: string): Program {
  const shared: Shared = {
    label,
    macros: new Map(),
    calls: [],
    depth: 0,
    parseString: (text, line) => topLevel(reader(text, { lineBase: line - 1, inString: true }, shared)),
  };
  const body = topLevel(reader(source, { lineBase: 0, inString: false }, shared));
  for (const call of shared.calls)
    if (!shared.macros.has(call.name))
      fail(
        'INVALID_TEMPLATE',
        `${label}: line ${call.line}: #${call.name} ${NOT_AVAILABLE.has(call.name) ? 'is not available' : 'is neither a directive nor a macro of this template'}`,
      );
  return Object.freeze({ label, body, macros: shared.macros });
}

function topLevel(r: Reader): Node[] {
  const { nodes, stop } = sequence(r);
  if (stop.kind === 'end') refuse(r, 'an #end closes no block', stop.pos);
  if (stop.kind !== 'eof') refuse(r, `#${stop.kind} outside #if`, stop.pos);
  return nodes;
}

/** Nodes up to the end of the text or the next `#end`, `#else` or `#elseif`. */
function sequence(r: Reader): { nodes: Node[]; stop: Stop } {
  const nodes: Node[] = [];
  for (;;) {
    readText(r, nodes);
    if (r.pos >= r.src.length) return { nodes, stop: { kind: 'eof', pos: r.pos } };
    const c = r.src[r.pos];
    if (c !== '$' && c !== '#') continue;
    const item = c === '$' ? dollarAt(r) : hashAt(r);
    if (item === null) continue;
    if (isStop(item)) return { nodes, stop: item };
    if (item.kind === 'text') {
      pushText(nodes, item.text);
      r.afterDirective = false;
    } else nodes.push(item);
  }
}

function isStop(item: NonNullable<HashResult>): item is Stop {
  return item.kind === 'eof' || item.kind === 'end' || item.kind === 'else' || item.kind === 'elseif';
}

/**
 * Text up to the next `$` or `#`. A `$` or `#` after an odd number of backslashes is text (one backslash
 * dropped); two or more backslashes before one are printed as one (velocityjs's rule). A line break right
 * after a directive is left out.
 */
function readText(r: Reader, nodes: Node[]): void {
  SPECIAL.lastIndex = r.pos;
  const next = SPECIAL.exec(r.src)?.index ?? r.src.length;
  let text = r.src.slice(r.pos, next);
  r.pos = next;
  const slashes = next < r.src.length ? trailingBackslashes(text) : 0;
  if (slashes > 0) {
    text = text.slice(0, text.length - slashes) + (slashes >= 2 ? '\\' : '');
    if (slashes % 2 === 1) {
      text += r.src[next];
      r.pos += 1;
    }
  }
  if (text === '') return;
  pushText(nodes, r.afterDirective ? withoutLineAfterDirective(text) : text);
  r.afterDirective = false;
}

function trailingBackslashes(text: string): number {
  let i = text.length;
  while (i > 0 && text.charCodeAt(i - 1) === 0x5c) i--;
  return text.length - i;
}

function withoutLineAfterDirective(text: string): string {
  LINE_AFTER_DIRECTIVE.lastIndex = 0;
  return LINE_AFTER_DIRECTIVE.test(text) ? text.slice(LINE_AFTER_DIRECTIVE.lastIndex) : text;
}

function pushText(nodes: Node[], text: string): void {
  if (text === '') return;
  const last = nodes[nodes.length - 1];
  if (last?.kind === 'text') nodes[nodes.length - 1] = { kind: 'text', text: last.text + text };
  else nodes.push({ kind: 'text', text });
}

/** A reference written out, or a `$` that starts none (then it is text). */
function dollarAt(r: Reader): HashResult {
  r.afterDirective = false;
  if (!atReference(r)) {
    r.pos += 1;
    return { kind: 'text', text: '$' };
  }
  const line = lineAt(r);
  const { expr, quiet, source } = parseReference(r);
  return { kind: 'output', expr, quiet, source, line };
}

function hashAt(r: Reader): HashResult {
  const start = r.pos;
  const next = r.src[start + 1];
  if (next === '*' || next === '[') return commentOrRaw(r);
  if (next === '#') {
    const end = r.src.indexOf('\n', start);
    r.pos = end === -1 ? r.src.length : end;
    r.afterDirective = true;
    return null;
  }
  if (next === '@') return refuse(r, '#@ is not available');
  if (next === '{') return bracedStop(r);
  r.pos += 1;
  const word = take(r, WORD)?.[0];
  if (word === undefined) return { kind: 'text', text: '#' };
  r.afterDirective = true;
  return directive(r, word, start);
}

/** `#* comment *#` (left out) and `#[[text]]#` (text as written); unclosed, the `#` is text. */
function commentOrRaw(r: Reader): HashResult {
  const start = r.pos;
  const comment = r.src[start + 1] === '*';
  if (!comment && r.src[start + 2] !== '[') {
    r.pos += 1;
    return { kind: 'text', text: '#' };
  }
  const [close, from] = comment ? ['*#', start + 3] : [']]#', start + 4];
  const key = comment ? 'comment' : 'raw';
  const end = from >= r.noCloseFrom[key] ? -1 : r.src.indexOf(close, from);
  if (end === -1) {
    r.noCloseFrom[key] = Math.min(r.noCloseFrom[key], from);
    r.pos += 1;
    return { kind: 'text', text: '#' };
  }
  r.pos = end + close.length;
  r.afterDirective = comment;
  return comment ? null : { kind: 'text', text: r.src.slice(start + 3, end) };
}

/** `#{else}` or `#{end}`; any other `#{` is text. */
function bracedStop(r: Reader): HashResult {
  const pos = r.pos;
  const braced = take(r, /#\{(else|end)\}/y);
  if (!braced) {
    r.pos += 1;
    return { kind: 'text', text: '#' };
  }
  r.afterDirective = true;
  return { kind: braced[1] as 'else' | 'end', pos };
}

function directive(r: Reader, word: string, start: number): HashResult {
  switch (word) {
    case 'set':
      return setAt(r, start);
    case 'if':
      return ifAt(r, start);
    case 'elseif':
      return { kind: 'elseif', pos: start, condition: condition(r, 'elseif') };
    case 'else':
    case 'end':
      return { kind: word, pos: start };
    case 'foreach':
      return foreachAt(r, start);
    case 'macro':
      return macroAt(r, start);
    case 'break':
    case 'define':
    case 'noescape':
      return refuse(r, `#${word} is not available`, start);
    default:
      return callAt(r, start);
  }
}

/** `#name(arg …)`: a call of a macro (checked once the whole template is read); without `(`, text. */
function callAt(r: Reader, start: number): HashResult {
  r.pos = start + 1;
  const call = take(r, CALL);
  if (!call) {
    r.afterDirective = false;
    return { kind: 'text', text: '#' };
  }
  const line = lineAt(r, start);
  r.shared.calls.push({ name: call[1]!, line });
  const args = nested(r, () => argumentsUntil(r, ')'));
  return { kind: 'call', macro: call[1]!, args, line };
}

function open(r: Reader, what: string): void {
  if (!take(r, OPEN)) cannotParse(r, `"(" expected after #${what}`);
}

function condition(r: Reader, what: 'if' | 'elseif'): Expr {
  open(r, what);
  const expr = parseExpr(r);
  expect(r, ')');
  return expr;
}

function setAt(r: Reader, start: number): Node {
  open(r, 'set');
  skipSpace(r);
  const name = localName(r, plainName(r), 'the target of #set', start);
  expect(r, '=');
  const expr = parseExpr(r);
  expect(r, ')');
  return { kind: 'set', name, expr, line: lineAt(r, start) };
}

function ifAt(r: Reader, start: number): Node {
  const branches: { condition: Expr | null; body: readonly Node[] }[] = [];
  let current: Expr | null = condition(r, 'if');
  for (;;) {
    const { nodes, stop } = blockBody(r, start);
    branches.push({ condition: current, body: nodes });
    if (stop.kind === 'end') return { kind: 'if', branches, line: lineAt(r, start) };
    current = stop.kind === 'elseif' ? stop.condition : null;
  }
}

function foreachAt(r: Reader, start: number): Node {
  open(r, 'foreach');
  skipSpace(r);
  const name = localName(r, plainName(r), 'a #foreach variable', start);
  skipSpace(r);
  if (!take(r, /in\b/y)) cannotParse(r, '"in" expected');
  const items = parseExpr(r);
  expect(r, ')');
  const body = blockBody(r, start);
  if (body.stop.kind !== 'end') refuse(r, `#${body.stop.kind} outside #if`, body.stop.pos);
  return { kind: 'foreach', name, items, body: body.nodes, line: lineAt(r, start) };
}

function macroAt(r: Reader, start: number): null {
  if (r.inString) refuse(r, 'a #macro cannot be defined inside a string', start);
  open(r, 'macro');
  skipSpace(r);
  const name = take(r, /[A-Za-z_][A-Za-z0-9_-]*/y)?.[0] ?? cannotParse(r, 'a macro name expected');
  if (r.shared.macros.has(name)) refuse(r, `#macro ${name} is defined twice`, start);
  const params: string[] = [];
  while ((take(r, /[\s,]*/y), !take(r, /\)/y))) params.push(localName(r, plainName(r), 'a macro parameter', r.pos));
  const body = blockBody(r, start);
  if (body.stop.kind !== 'end') refuse(r, `#${body.stop.kind} outside #if`, body.stop.pos);
  r.shared.macros.set(name, { params, body: body.nodes });
  return null;
}

/** The body of a block, one level deeper; it must be closed (by `#end`, or divided by `#else`/`#elseif`). */
function blockBody(r: Reader, start: number): { nodes: Node[]; stop: Stop } {
  const body = nested(r, () => sequence(r));
  if (body.stop.kind === 'eof') refuse(r, 'a #if, #foreach or #macro block is not closed by #end', start);
  return body;
}

function localName(r: Reader, name: { name: string; pathFollows: boolean } | null, what: string, pos: number): string {
  if (!name || name.pathFollows) return refuse(r, `${what} must be a name ($name)`, pos);
  if (RESERVED.has(name.name)) return refuse(r, `${what} cannot take the name $${name.name}`, pos);
  return name.name;
}
