/**
 * Velocity templates (velocityjs) limited to data: a template may read variables, set and loop, test
 * and call the tools we give (`$tools.urlEncode(…)`), and nothing else — no method call on a value (a
 * string's methods lead to its constructor), no `#include`/`#parse`/`#evaluate`, no property or index that
 * reaches an object's internals. The check runs on the parsed tree when the template is compiled.
 */
import velocity from 'velocityjs';
import { fail } from '../../core/errors.js';
import type { CompiledTemplate, TemplateEngine, TemplateValue, TemplateVars } from '../../app/mail/template.port.js';

/** The tools a template may call, by name. A value is taken as it was given, whether escaped for HTML or not. */
const TOOLS: Readonly<Record<string, (...args: unknown[]) => string>> = {
  urlEncode: (value) => encodeURIComponent(value === undefined || value === null ? '' : unescapeHtml(String(value))),
};
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const REVERSE = Object.fromEntries(Object.entries(ENTITIES).map(([c, e]) => [e, c]));
const FORBIDDEN_DIRECTIVES = new Set(['include', 'parse', 'evaluate']);
const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

interface Pos {
  readonly first_line: number;
}
type Ast = ReturnType<typeof velocity.parse>;

export function createVelocityEngine(): TemplateEngine {
  return {
    compile(source, opts) {
      const ast = parseOrFail(source, opts.label);
      const macros = new Set<string>();
      collectMacros(ast, macros);
      checkNodes(ast, { label: opts.label, macros, line: 1 });
      const compiled = new velocity.Compile(ast, { escape: false });
      return { render: (vars) => render(compiled, vars, opts.html) } satisfies CompiledTemplate;
    },
  };
}

/**
 * In an HTML template every value is escaped before the template sees it (`&<>"'`), so whatever a template
 * does with it, a user's name cannot become markup; `$raw.name` gives the value as it was given.
 */
function render(compiled: velocity.Compile, vars: TemplateVars, html: boolean): string {
  const values = html ? (escapeValue(vars) as TemplateVars) : vars;
  return compiled.render({ ...values, raw: vars, tools: TOOLS });
}

function escapeValue(value: TemplateValue): TemplateValue {
  if (typeof value === 'string') return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
  if (Array.isArray(value)) return value.map(escapeValue);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeValue(v as TemplateValue)]));
  return value;
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => REVERSE[entity]!);
}

function parseOrFail(source: string, label: string): Ast {
  try {
    checkBlocksBalanced(source, label);
    return velocity.parse(source);
  } catch (err) {
    const line = (err as { hash?: { loc?: { first_line?: number } } }).hash?.loc?.first_line;
    const reason = String((err as Error).message)
      .split('\n')
      .slice(-1)[0];
    return fail('INVALID_TEMPLATE', `${label}: line ${line ?? '?'}: cannot parse (${reason})`);
  }
}

const SENTINEL = 'proofsealEndOfTemplate';

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
  return isNode(node) && node.type === 'references' && node.id === SENTINEL;
}

function containsSentinel(node: unknown): boolean {
  return Array.isArray(node) ? node.some(containsSentinel) : isSentinel(node);
}

interface CheckContext {
  readonly label: string;
  readonly macros: ReadonlySet<string>;
  line: number;
}

function collectMacros(nodes: unknown, into: Set<string>): void {
  if (Array.isArray(nodes)) nodes.forEach((n) => collectMacros(n, into));
  else if (isNode(nodes) && nodes.type === 'macro' && typeof nodes.id === 'string') into.add(nodes.id);
}

function checkNodes(node: unknown, ctx: CheckContext): void {
  if (Array.isArray(node)) return node.forEach((n) => checkNodes(n, ctx));
  if (!isNode(node)) return;
  if (node.pos) ctx.line = node.pos.first_line;
  if (node.type === 'references') checkReference(node, ctx);
  if (node.type === 'macro_call') checkMacroCall(node, ctx);
  if (node.type === 'string' && node.isEval === true && typeof node.value === 'string') checkEmbedded(node.value, ctx);
  for (const [key, value] of Object.entries(node)) if (key !== 'pos') checkNodes(value, ctx);
}

function checkReference(node: Record<string, unknown>, ctx: CheckContext): void {
  const path = (Array.isArray(node.path) ? node.path : []) as Record<string, unknown>[];
  path.forEach((step, i) => {
    if (step.type === 'method') checkMethod(node.id, step.id, i, ctx);
    else if (step.type === 'property') checkName(step.id, ctx);
    else if (step.type === 'index') checkIndex(step.id, ctx);
  });
}

function checkMethod(root: unknown, method: unknown, position: number, ctx: CheckContext): void {
  if (root === 'tools' && position === 0 && typeof method === 'string' && method in TOOLS) return;
  refuse(ctx, `"${String(method)}(…)": only $tools.${Object.keys(TOOLS).join('(…), $tools.')}(…) can be called`);
}

function checkName(name: unknown, ctx: CheckContext): void {
  if (typeof name !== 'string' || !SAFE_NAME.test(name) || name === 'constructor' || name === 'prototype')
    refuse(ctx, `property "${String(name)}" cannot be read`);
}

function checkIndex(index: unknown, ctx: CheckContext): void {
  if (!isNode(index)) return refuse(ctx, 'an index must be a number or a string');
  if (index.type === 'integer') return;
  if (index.type === 'string' && typeof index.value === 'string') return checkName(index.value, ctx);
  refuse(ctx, 'an index must be a number or a string written in the template');
}

function checkMacroCall(node: Record<string, unknown>, ctx: CheckContext): void {
  const id = String(node.id);
  if (FORBIDDEN_DIRECTIVES.has(id)) refuse(ctx, `#${id} is not available`);
  else if (!ctx.macros.has(id)) refuse(ctx, `#${id} is neither a directive nor a macro of this template`);
}

/** A double-quoted string is itself a template, rendered when used: check it the same way. */
function checkEmbedded(source: string, ctx: CheckContext): void {
  if (!source.includes('$') && !source.includes('#')) return;
  const line = ctx.line;
  checkNodes(parseOrFail(source, `${ctx.label}: line ${line}: string`), { ...ctx, line });
}

function refuse(ctx: CheckContext, reason: string): never {
  return fail('INVALID_TEMPLATE', `${ctx.label}: line ${ctx.line}: ${reason}`);
}

function isNode(value: unknown): value is Record<string, unknown> & { pos?: Pos } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
