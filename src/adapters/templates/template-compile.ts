/**
 * From velocityjs's parse tree to our own (template-ir.ts), accepting only the language of
 * docs/templates.md and refusing everything else here, at compile time, with INVALID_TEMPLATE naming the
 * template and the line. Nothing of velocityjs survives this step: its objects are read, never kept.
 */
import velocity from 'velocityjs';
import { fail } from '../../core/errors.js';
import { TEMPLATE_MAX_SOURCE, TEMPLATE_MAX_TOKENS } from '../../app/mail/template.port.js';
import type { BinaryOp, Expr, Macro, Node, Program } from './template-ir.js';
import { TOOL_NAMES } from './template-tools.js';

/** Names the template may read but never assign, loop over or take as a macro parameter. */
const RESERVED = new Set(['tools', 'raw', 'foreach', 'velocityCount']);
const SAFE_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
const BLOCKED_KEYS = new Set(['constructor', 'prototype']);
const BINARY: ReadonlySet<string> = new Set<BinaryOp>([
  '+',
  '-',
  '*',
  '/',
  '%',
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
]);
const SENTINEL = 'proofsealEndOfTemplate';
/** Blocks and expressions nested deeper than this are refused: the interpreter's recursion stays shallow. */
const MAX_NESTING = 64;

type Raw = Record<string, unknown> & { pos?: { first_line?: number } };

interface Context {
  readonly label: string;
  /** Names of the template's macros (collected first: a macro may be called before it is written). */
  readonly macroNames: ReadonlySet<string>;
  readonly macros: Map<string, Macro>;
  /** Inside a double-quoted string: no macro may be defined there. */
  readonly inString: boolean;
  /** The line of the template where this text starts (a string's own lines count from there). */
  readonly base: number;
  line: number;
  /** How deep the current block or expression is nested. */
  depth: number;
  /** Whether the template reads `$raw` (shared with the contexts of its strings). */
  readonly uses: { raw: boolean };
}

/**
 * Parses and compiles a template.
 * @throws DomainError INVALID_TEMPLATE naming `label` and the line; TEMPLATE_TOO_COSTLY for a source too long
 */
export function compileProgram(source: string, label: string): Program {
  checkParseCost(source, label);
  const ast = parseOrFail(source, label, 1);
  const macroNames = new Set<string>();
  collectMacroNames(ast, macroNames);
  const ctx: Context = {
    label,
    macroNames,
    macros: new Map(),
    inString: false,
    base: 0,
    line: 1,
    depth: 0,
    uses: { raw: false },
  };
  const body = compileNodes(ast, ctx);
  return Object.freeze({ label, body, macros: ctx.macros, usesRaw: ctx.uses.raw });
}

/**
 * velocityjs's parser takes time growing with the template's length times its tokens (about 0.3 s for 16 Ki
 * of `$a`), so a template is parsed only when both are small: at most TEMPLATE_MAX_SOURCE units and
 * TEMPLATE_MAX_TOKENS of `$`, `#` and `,` (plain text and markup cost almost nothing).
 */
function checkParseCost(source: string, label: string): void {
  if (source.length > TEMPLATE_MAX_SOURCE)
    fail('TEMPLATE_TOO_COSTLY', `${label}: longer than ${TEMPLATE_MAX_SOURCE} characters (${source.length})`);
  const tokens = source.match(/[$#,]/g)?.length ?? 0;
  if (tokens > TEMPLATE_MAX_TOKENS)
    fail('TEMPLATE_TOO_COSTLY', `${label}: more than ${TEMPLATE_MAX_TOKENS} "$", "#" and "," (${tokens})`);
}

function parseOrFail(source: string, label: string, line: number): unknown[] {
  try {
    checkBlocksBalanced(source, label);
    return velocity.parse(source) as unknown[];
  } catch (err) {
    if ((err as { code?: unknown }).code === 'INVALID_TEMPLATE') throw err;
    const at = (err as { hash?: { loc?: { first_line?: number } } }).hash?.loc?.first_line;
    const reason = String((err as Error).message)
      .split('\n')
      .slice(-1)[0];
    return fail(
      'INVALID_TEMPLATE',
      `${label}: line ${at === undefined ? line : line + at - 1}: cannot parse (${reason})`,
    );
  }
}

/**
 * velocityjs closes an unclosed `#if`/`#foreach` at the end silently (repeating text) and stops at a stray
 * `#end` (dropping the rest), so the balance is checked here: wrapped in `#if(true)…#end$sentinel`, a
 * balanced template parses to exactly that block followed by the sentinel, with no sentinel inside the block.
 */
function checkBlocksBalanced(source: string, label: string): void {
  const wrapped = velocity.parse(`#if(true)${source}\n#end$${SENTINEL}`) as unknown[];
  const [block, tail, ...more] = wrapped;
  const closedWell = Array.isArray(block) && isSentinel(tail) && more.length === 0 && !containsSentinel(block);
  if (!closedWell)
    fail(
      'INVALID_TEMPLATE',
      `${label}: a #if, #foreach or #macro block is not closed by #end, or an #end closes no block`,
    );
}

function isSentinel(node: unknown): boolean {
  return isRaw(node) && node.type === 'references' && node.id === SENTINEL;
}

function containsSentinel(node: unknown): boolean {
  return Array.isArray(node) ? node.some(containsSentinel) : isSentinel(node);
}

function collectMacroNames(nodes: unknown, into: Set<string>): void {
  if (Array.isArray(nodes)) nodes.forEach((n) => collectMacroNames(n, into));
  else if (isRaw(nodes) && nodes.type === 'macro' && typeof nodes.id === 'string') into.add(nodes.id);
}

function compileNodes(nodes: readonly unknown[], ctx: Context): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    const compiled = compileNode(node, ctx);
    if (compiled) out.push(compiled);
  }
  return out;
}

function compileNode(node: unknown, ctx: Context): Node | null {
  if (typeof node === 'string') return node === '' ? null : { kind: 'text', text: node };
  if (Array.isArray(node)) return compileBlock(node, ctx);
  if (!isRaw(node)) return refuse(ctx, 'an unknown construct');
  setLine(node, ctx);
  switch (node.type) {
    case 'comment':
      return null;
    case 'raw':
      return { kind: 'text', text: String(node.value) };
    case 'references':
      return {
        kind: 'output',
        expr: compileReference(node, ctx),
        quiet: node.leader === '$!',
        source: refText(node),
        line: ctx.line,
      };
    case 'set':
      return compileSet(node, ctx);
    case 'macro_call':
      return compileCall(node, ctx);
    case 'break':
      return refuse(ctx, '#break is not available');
    default:
      return refuse(ctx, `#${String(node.type)} is not available`);
  }
}

function compileBlock(block: readonly unknown[], ctx: Context): Node | null {
  return nested(ctx, () => compileBlockAt(block, ctx));
}

function compileBlockAt(block: readonly unknown[], ctx: Context): Node | null {
  const head = block[0];
  if (!isRaw(head)) return refuse(ctx, 'an unknown block');
  setLine(head, ctx);
  const line = ctx.line;
  if (head.type === 'if') return compileIf(block, ctx, line);
  if (head.type === 'foreach') {
    const name = localName(head.to, ctx, 'a #foreach variable');
    const items = compileExpr(head.from, ctx);
    return { kind: 'foreach', name, items, body: compileNodes(block.slice(1), ctx), line };
  }
  if (head.type === 'macro') return compileMacro(head, block.slice(1), ctx);
  return refuse(ctx, `#${String(head.type)} is not available`);
}

function compileIf(block: readonly unknown[], ctx: Context, line: number): Node {
  const branches: { condition: Expr | null; body: unknown[] }[] = [];
  for (const item of block) {
    if (isRaw(item) && (item.type === 'if' || item.type === 'elseif'))
      branches.push({ condition: compileExpr(item.condition, ctx), body: [] });
    else if (isRaw(item) && item.type === 'else') branches.push({ condition: null, body: [] });
    else branches[branches.length - 1]!.body.push(item);
  }
  return {
    kind: 'if',
    branches: branches.map((b) => ({ condition: b.condition, body: compileNodes(b.body, ctx) })),
    line,
  };
}

function compileMacro(head: Raw, body: readonly unknown[], ctx: Context): null {
  const name = String(head.id);
  if (ctx.inString) return refuse(ctx, 'a #macro cannot be defined inside a string');
  if (ctx.macros.has(name)) return refuse(ctx, `#macro ${name} is defined twice`);
  const params = (Array.isArray(head.args) ? head.args : []).map((a: unknown) =>
    localName(isRaw(a) && a.type === 'references' && a.path === undefined ? a.id : undefined, ctx, 'a macro parameter'),
  );
  ctx.macros.set(name, { params, body: compileNodes(body, ctx) });
  return null;
}

function compileSet(node: Raw, ctx: Context): Node {
  const [target, value] = Array.isArray(node.equal) ? (node.equal as unknown[]) : [];
  if (!isRaw(target) || target.path !== undefined)
    return refuse(ctx, `#set may only assign a local name ($name), not ${isRaw(target) ? refText(target) : 'this'}`);
  const name = localName(target.id, ctx, '#set');
  return { kind: 'set', name, expr: compileExpr(value, ctx), line: ctx.line };
}

function compileCall(node: Raw, ctx: Context): Node {
  const name = String(node.id);
  if (!ctx.macroNames.has(name))
    return refuse(
      ctx,
      ['include', 'parse', 'evaluate', 'define', 'stop', 'break'].includes(name)
        ? `#${name} is not available`
        : `#${name} is neither a directive nor a macro of this template`,
    );
  const args = (Array.isArray(node.args) ? node.args : []).map((a: unknown) => compileExpr(a, ctx));
  return { kind: 'call', macro: name, args, line: ctx.line };
}

function localName(id: unknown, ctx: Context, what: string): string {
  if (typeof id !== 'string' || id === '') return refuse(ctx, `${what} must be a name ($name)`);
  if (RESERVED.has(id)) return refuse(ctx, `${what} cannot take the name $${id}`);
  return id;
}

function compileExpr(node: unknown, ctx: Context): Expr {
  return nested(ctx, () => compileExprAt(node, ctx));
}

function nested<T>(ctx: Context, compile: () => T): T {
  if (ctx.depth >= MAX_NESTING) refuse(ctx, `blocks or expressions nested more than ${MAX_NESTING} deep`);
  ctx.depth += 1;
  try {
    return compile();
  } finally {
    ctx.depth -= 1;
  }
}

function compileExprAt(node: unknown, ctx: Context): Expr {
  if (!isRaw(node)) return refuse(ctx, 'an unknown expression');
  switch (node.type) {
    case 'string':
      return compileString(node, ctx);
    case 'integer':
    case 'decimal':
      return { kind: 'literal', value: numberOf(node.value, ctx) };
    case 'bool':
      return { kind: 'literal', value: node.value === 'true' ? true : node.value === 'false' ? false : null };
    case 'array':
      return compileArray(node, ctx);
    case 'map':
      return compileMap(node, ctx);
    case 'references':
      return compileReference(node, ctx);
    case 'math':
      return compileMath(node, ctx);
    default:
      return refuse(ctx, `an expression of type ${String(node.type)} is not available`);
  }
}

function compileString(node: Raw, ctx: Context): Expr {
  const text = String(node.value);
  if (node.isEval !== true || (!text.includes('$') && !text.includes('#'))) return { kind: 'literal', value: text };
  const inner: Context = { ...ctx, inString: true, base: ctx.line - 1 };
  const parts = compileNodes(parseOrFail(text, ctx.label, ctx.line), inner);
  return { kind: 'interpolated', parts };
}

function numberOf(value: unknown, ctx: Context): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : refuse(ctx, `the number ${String(value)} is out of range`);
}

function compileArray(node: Raw, ctx: Context): Expr {
  const items = Array.isArray(node.value) ? (node.value as unknown[]) : [];
  if (node.isRange !== true) return { kind: 'list', items: items.map((i) => compileExpr(i, ctx)) };
  const [from, to] = items.map((end): Expr =>
    typeof end === 'string' || typeof end === 'number'
      ? { kind: 'literal', value: numberOf(end, ctx) }
      : compileExpr(end, ctx),
  );
  if (!from || !to) return refuse(ctx, 'a range needs two ends');
  return { kind: 'range', from, to };
}

function compileMap(node: Raw, ctx: Context): Expr {
  const value = isRaw(node.value) ? node.value : {};
  const entries = Object.keys(value).map((key) => [key, compileExpr(value[key], ctx)] as const);
  return { kind: 'map', entries };
}

function compileMath(node: Raw, ctx: Context): Expr {
  const operands = Array.isArray(node.expression) ? (node.expression as unknown[]) : [];
  const op = String(node.operator);
  if (op === 'parenthesis' && operands.length === 1) return compileExpr(operands[0], ctx);
  if ((op === 'not' || op === 'minus') && operands.length === 1)
    return { kind: op, operand: compileExpr(operands[0], ctx) };
  if (BINARY.has(op) && operands.length === 2)
    return {
      kind: 'binary',
      op: op as BinaryOp,
      left: compileExpr(operands[0], ctx),
      right: compileExpr(operands[1], ctx),
    };
  return refuse(ctx, `the operator ${op} is not available`);
}

/** `$name…`, `$raw.key…` or `$tools.name(…)`; a method call on anything else is refused here. */
function compileReference(node: Raw, ctx: Context): Expr {
  const id = String(node.id);
  if (node.args !== undefined) return refuse(ctx, `"${id}(…)": only ${toolList()} can be called`);
  const steps = (Array.isArray(node.path) ? node.path : []) as unknown[];
  if (id === 'tools') return compileTool(steps, ctx);
  const path = steps.map((step) => pathStep(step, ctx));
  if (id !== 'raw') return { kind: 'lookup', name: id, path };
  const [first, ...rest] = path;
  if (typeof first !== 'string') return refuse(ctx, '$raw is read by key only: $raw.name');
  ctx.uses.raw = true;
  return { kind: 'raw', path: [first, ...rest] };
}

function compileTool(steps: readonly unknown[], ctx: Context): Expr {
  const [step, ...more] = steps;
  if (!isRaw(step) || step.type !== 'method' || typeof step.id !== 'string' || !TOOL_NAMES.has(step.id))
    return refuse(ctx, `$tools is only called: ${toolList()}`);
  if (more.length > 0) return refuse(ctx, `nothing can follow $tools.${step.id}(…)`);
  const args = (Array.isArray(step.args) ? step.args : []).map((a: unknown) => compileExpr(a, ctx));
  return { kind: 'tool', name: step.id, args };
}

function pathStep(step: unknown, ctx: Context): string | number {
  if (!isRaw(step)) return refuse(ctx, 'an unknown property');
  if (step.type === 'method') return refuse(ctx, `"${String(step.id)}(…)": only ${toolList()} can be called`);
  if (step.type === 'property') return dataKey(step.id, ctx);
  const index = step.id;
  if (isRaw(index) && index.type === 'integer') return numberOf(index.value, ctx);
  if (isRaw(index) && index.type === 'string' && !(index.isEval === true && /[$#]/.test(String(index.value))))
    return dataKey(index.value, ctx);
  return refuse(ctx, 'an index must be a number or a string written in the template');
}

function dataKey(name: unknown, ctx: Context): string {
  if (typeof name !== 'string' || !SAFE_KEY.test(name) || BLOCKED_KEYS.has(name))
    return refuse(ctx, `property "${String(name)}" cannot be read`);
  return name;
}

function toolList(): string {
  return [...TOOL_NAMES].map((t) => `$tools.${t}(…)`).join(', ');
}

/** The reference as written, printed in place of a reference that has no value (Velocity's rule). */
function refText(node: Raw): string {
  const wrapped = node.isWraped === true;
  const steps = (Array.isArray(node.path) ? node.path : []) as Raw[];
  const path = steps
    .map((s) => {
      if (s.type === 'property') return `.${String(s.id)}`;
      const index = s.id as Raw;
      return index.type === 'string'
        ? `[${index.isEval === true ? '"' : "'"}${String(index.value)}${index.isEval === true ? '"' : "'"}]`
        : `[${String(index.value)}]`;
    })
    .join('');
  return `${String(node.leader)}${wrapped ? '{' : ''}${String(node.id)}${path}${wrapped ? '}' : ''}`;
}

function setLine(node: Raw, ctx: Context): void {
  if (typeof node.pos?.first_line === 'number') ctx.line = ctx.base + node.pos.first_line;
}

function refuse(ctx: Context, reason: string): never {
  return fail('INVALID_TEMPLATE', `${ctx.label}: line ${ctx.line}: ${reason}`);
}

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
