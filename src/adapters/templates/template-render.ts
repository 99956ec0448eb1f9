/**
 * The interpreter of compiled templates (template-ir.ts). A render reads its own data (built for it by
 * template-data.ts), writes only its own scope, calls only the tools of template-tools.ts, and stops with
 * TEMPLATE_TOO_COSTLY as soon as it passes one of the budgets below: work and size are bounded whatever
 * the template says.
 */
import { fail } from '../../core/errors.js';
import type { RenderMeter, TemplateVars } from '../../app/mail/template.port.js';
import { dataMap, hasKey, isDataMap, mapSize, renderVars, type RenderVars } from './template-data.js';
import type { BinaryOp, DataMap, Expr, Node, Program, Value } from './template-ir.js';
import { TOOLS } from './template-tools.js';

/** The budget of one render (docs/templates.md). */
export const BUDGET = Object.freeze({
  /** Nodes and expressions evaluated, loop turns, and elements of ranges made. */
  steps: 100_000,
  /** Elements of one range `[a..b]`. */
  rangeSize: 10_000,
  /** Macro calls inside macro calls. */
  macroDepth: 20,
  /** Loops and macro calls open at once (each a scope a name is looked up in). */
  scopes: 32,
  /** UTF-16 units of any one string a template builds (output included). */
  stringLength: 262_144,
  /** UTF-16 units of all the strings a render builds, gives a tool or compares, output included. */
  charsBuilt: 1_048_576,
  /** Lists and maps nested in a value printed as text. */
  printDepth: 64,
});

export interface RenderInput {
  /** The variables of the render: read as `$name` (HTML-escaped in an HTML template) and `$raw.name`. */
  readonly vars: TemplateVars;
  readonly html: boolean;
  /** The most UTF-16 units the output may have. */
  readonly maxLength: number;
  /** Steps and characters shared with other renders (a request's trial renders), with their common limits. */
  readonly meter?: RenderMeter | undefined;
}

/** A string being built, and the most it may have. */
interface Sink {
  text: string;
  readonly max: number;
  readonly what: string;
}

/** A loop's position, and its `$foreach` for that turn once a template has read it. */
interface Loop {
  index: number;
  readonly length: number;
  info?: { readonly index: number; readonly map: DataMap };
}

/** A loop's or a macro's names; a loop's position, read as `$foreach.…` and `$velocityCount`. */
interface Frame {
  readonly vars: Map<string, Value>;
  readonly loop?: Loop;
}

interface State {
  readonly program: Program;
  readonly input: RenderInput;
  /** The values read as `$name`, and as `$raw.name`: copies made for this render, when first read. */
  readonly data: RenderVars;
  readonly raw: RenderVars;
  /** Names set by `#set` outside any loop or macro: the render's own, dropped with it. */
  readonly globals: Map<string, Value>;
  /** Loop and macro scopes, innermost last. */
  readonly frames: Frame[];
  steps: number;
  chars: number;
  depth: number;
  line: number;
}

export function renderProgram(program: Program, input: RenderInput): string {
  const copied = (size: number) => built(state, size, 'the variables read');
  const data = renderVars(input.vars, { escape: input.html }, copied);
  const state: State = {
    program,
    input,
    data,
    raw: input.html ? renderVars(input.vars, { escape: false }, copied) : data,
    globals: new Map(),
    frames: [],
    steps: 0,
    chars: 0,
    depth: 0,
    line: 1,
  };
  const sink: Sink = { text: '', max: input.maxLength, what: 'the output' };
  renderNodes(program.body, state, sink);
  return sink.text;
}

function renderNodes(nodes: readonly Node[], state: State, sink: Sink): void {
  for (const node of nodes) renderNode(node, state, sink);
}

function renderNode(node: Node, state: State, sink: Sink): void {
  step(state, 1);
  if (node.kind === 'text') return write(state, sink, node.text);
  state.line = node.line;
  switch (node.kind) {
    case 'output': {
      const shown = show(evaluate(node.expr, state), state);
      return write(state, sink, shown ?? (node.quiet ? '' : node.source));
    }
    case 'set':
      return assign(state, node.name, evaluate(node.expr, state));
    case 'if': {
      const branch = node.branches.find((b) => b.condition === null || truthy(evaluate(b.condition, state)));
      if (branch) renderNodes(branch.body, state, sink);
      return;
    }
    case 'foreach':
      return renderLoop(node, state, sink);
    case 'call':
      return renderCall(node, state, sink);
  }
}

function renderLoop(node: Extract<Node, { kind: 'foreach' }>, state: State, sink: Sink): void {
  const items = iterable(evaluate(node.items, state));
  const frame: Frame = { vars: new Map(), loop: { index: 0, length: items.length } };
  openScope(state, frame);
  try {
    for (let i = 0; i < items.length; i++) {
      step(state, 1);
      frame.vars.set(node.name, items[i]!);
      frame.loop!.index = i;
      renderNodes(node.body, state, sink);
    }
  } finally {
    state.frames.pop();
  }
}

/** `$foreach`, made only when a template reads it, once per turn however often it is read. */
function loopInfo(loop: Loop): DataMap {
  const i = loop.index;
  if (loop.info?.index === i) return loop.info.map;
  const map = dataMap([
    ['count', i + 1],
    ['index', i],
    ['hasNext', i + 1 < loop.length],
    ['first', i === 0],
    ['last', i + 1 === loop.length],
  ]);
  loop.info = { index: i, map };
  return map;
}

function iterable(value: Value): readonly Value[] {
  if (Array.isArray(value)) return value as readonly Value[];
  if (isDataMap(value)) return Object.values(value);
  return [];
}

function renderCall(node: Extract<Node, { kind: 'call' }>, state: State, sink: Sink): void {
  const macro = state.program.macros.get(node.macro);
  if (!macro) return;
  if (state.depth >= BUDGET.macroDepth) tooCostly(state, `macros nested more than ${BUDGET.macroDepth} deep`);
  step(state, macro.params.length);
  const vars = new Map<string, Value>(
    macro.params.map((p, i) => [p, i < node.args.length ? evaluate(node.args[i]!, state) : null]),
  );
  openScope(state, { vars });
  state.depth += 1;
  try {
    renderNodes(macro.body, state, sink);
  } finally {
    state.depth -= 1;
    state.frames.pop();
    state.line = node.line;
  }
}

function openScope(state: State, frame: Frame): void {
  if (state.frames.length >= BUDGET.scopes)
    tooCostly(state, `more than ${BUDGET.scopes} loops and macro calls open at once`);
  state.frames.push(frame);
}

/** `#set`: into the innermost loop or macro scope that has the name, else into the render's own names. */
function assign(state: State, name: string, value: Value): void {
  step(state, state.frames.length >> 1);
  for (let i = state.frames.length - 1; i >= 0; i--)
    if (state.frames[i]!.vars.has(name)) {
      state.frames[i]!.vars.set(name, value);
      return;
    }
  state.globals.set(name, value);
}

/** A name is looked up from the innermost scope out: a deep stack of scopes costs steps. */
function lookup(state: State, name: string): Value {
  step(state, state.frames.length >> 1);
  for (let i = state.frames.length - 1; i >= 0; i--) {
    const { vars, loop } = state.frames[i]!;
    if (vars.has(name)) return vars.get(name)!;
    if (loop && name === 'foreach') return loopInfo(loop);
    if (loop && name === 'velocityCount') return loop.index + 1;
  }
  if (state.globals.has(name)) return state.globals.get(name)!;
  return state.data.read(name);
}

function follow(value: Value, path: readonly (string | number)[], from = 0): Value {
  let current = value;
  for (let i = from; i < path.length; i++) {
    const key = path[i]!;
    if (typeof key === 'number' && Array.isArray(current))
      current = Number.isInteger(key) && key >= 0 && key < current.length ? (current[key] as Value) : null;
    else if (typeof key === 'string' && isDataMap(current)) current = hasKey(current, key) ? current[key]! : null;
    else return null;
  }
  return current;
}

function evaluate(expr: Expr, state: State): Value {
  step(state, 1);
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'interpolated': {
      const sink: Sink = { text: '', max: BUDGET.stringLength, what: 'a string' };
      renderNodes(expr.parts, state, sink);
      return sink.text;
    }
    case 'list':
      return Object.freeze(expr.items.map((item) => evaluate(item, state)));
    case 'map':
      return dataMap(expr.entries.map(([key, item]) => [key, evaluate(item, state)] as const));
    case 'range':
      return range(evaluate(expr.from, state), evaluate(expr.to, state), state);
    case 'lookup':
      step(state, expr.path.length);
      return follow(lookup(state, expr.name), expr.path);
    case 'raw':
      step(state, expr.path.length);
      return follow(state.raw.read(expr.path[0]), expr.path, 1);
    case 'tool':
      return callTool(expr, state);
    case 'not':
      return !truthy(evaluate(expr.operand, state));
    case 'minus': {
      const n = evaluate(expr.operand, state);
      return typeof n === 'number' ? -n : null;
    }
    case 'binary':
      return binary(expr.op, expr.left, expr.right, state);
  }
}

function callTool(expr: Extract<Expr, { kind: 'tool' }>, state: State): Value {
  const tool = TOOLS.get(expr.name);
  if (!tool) return null;
  const args = expr.args.map((a) => show(evaluate(a, state), state) ?? '');
  built(
    state,
    args.reduce((sum, arg) => sum + arg.length, 0),
    'the arguments of a tool',
  );
  const result = tool(args);
  built(state, result.length, 'a string');
  return result;
}

function range(from: Value, to: Value, state: State): Value {
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isInteger(from) || !Number.isInteger(to))
    return Object.freeze([]);
  const size = Math.abs(to - from) + 1;
  if (size > BUDGET.rangeSize) tooCostly(state, `a range of ${size} elements (at most ${BUDGET.rangeSize})`);
  step(state, size);
  const sign = to >= from ? 1 : -1;
  const values: number[] = [];
  for (let i = 0; i < size; i++) values.push(from + sign * i);
  return Object.freeze(values);
}

function binary(op: BinaryOp, leftExpr: Expr, rightExpr: Expr, state: State): Value {
  if (op === '&&') return truthy(evaluate(leftExpr, state)) && truthy(evaluate(rightExpr, state));
  if (op === '||') return truthy(evaluate(leftExpr, state)) || truthy(evaluate(rightExpr, state));
  const left = evaluate(leftExpr, state);
  const right = evaluate(rightExpr, state);
  switch (op) {
    case '==':
      return equal(left, right, state);
    case '!=':
      return !equal(left, right, state);
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (typeof left === 'string' && typeof right === 'string')
        built(state, Math.min(left.length, right.length), 'the strings compared');
      return compare(op, left, right);
    case '+':
      return add(left, right, state);
    default:
      return arithmetic(op, left, right);
  }
}

/**
 * Velocity's `==`: numbers by value, values of one type as they are, others by their text. Comparing two
 * strings reads them: their length counts in the characters of the render's budget. A list or map compared
 * with itself is equal without being printed.
 */
function equal(left: Value, right: Value, state: State): boolean {
  if (left === null || right === null) return left === right;
  if (typeof left === 'object' && left === right) return true;
  if (typeof left === 'string' && typeof right === 'string') {
    built(state, Math.min(left.length, right.length), 'the strings compared');
    return left === right;
  }
  if (typeof left === 'number' && typeof right === 'number') return left === right;
  if (typeof left === typeof right && typeof left !== 'object') return left === right;
  return show(left, state) === show(right, state);
}

function compare(op: '<' | '>' | '<=' | '>=', left: Value, right: Value): boolean {
  const comparable =
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  if (op === '<') return left < right;
  if (op === '>') return left > right;
  if (op === '<=') return left <= right;
  return left >= right;
}

/** `+`: numbers add; with a string on either side, the two texts are joined. */
function add(left: Value, right: Value, state: State): Value {
  if (typeof left === 'number' && typeof right === 'number') return finite(left + right);
  if (left === null || right === null || (typeof left !== 'string' && typeof right !== 'string')) return null;
  const joined = show(left, state)! + show(right, state)!;
  built(state, joined.length, 'a string');
  return joined;
}

/** `- * / %` on numbers; an integer divided by an integer is an integer (Velocity's rule); by zero, null. */
function arithmetic(op: BinaryOp, left: Value, right: Value): Value {
  if (typeof left !== 'number' || typeof right !== 'number') return null;
  if (op === '-') return finite(left - right);
  if (op === '*') return finite(left * right);
  if (right === 0) return null;
  if (op === '%') return finite(left % right);
  const quotient = left / right;
  return finite(Number.isInteger(left) && Number.isInteger(right) ? Math.trunc(quotient) : quotient);
}

function finite(n: number): Value {
  return Number.isFinite(n) ? n : null;
}

/** Velocity 2's truth: null, false, "", 0 and empty lists and maps are false. */
function truthy(value: Value): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  return mapSize(value as DataMap) > 0;
}

/** A value as text (`[a, b]` for a list, `{k=v}` for a map), or null when it has none. */
function show(value: Value, state: State): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const printed: Printed = { parts: [], length: 0 };
  print(value, state, printed, 0);
  return printed.parts.join('');
}

interface Printed {
  readonly parts: string[];
  length: number;
}

/**
 * Prints a list or a map piece by piece, each piece counted as it is made: a list holding the same large
 * list many times (and so on, nested) stops at the characters budget instead of being printed whole first.
 */
function print(value: Value, state: State, printed: Printed, depth: number): void {
  if (value === null || typeof value !== 'object')
    return piece(state, printed, value === null ? 'null' : String(value));
  if (depth >= BUDGET.printDepth) tooCostly(state, `a value nested more than ${BUDGET.printDepth} deep printed`);
  const list = Array.isArray(value) ? (value as readonly Value[]) : null;
  const keys = list ? null : Object.keys(value);
  const count = list ? list.length : keys!.length;
  piece(state, printed, list ? '[' : '{');
  for (let i = 0; i < count; i++) {
    if (i > 0) piece(state, printed, ', ');
    if (keys) piece(state, printed, `${keys[i]!}=`);
    print(list ? list[i]! : (value as DataMap)[keys![i]!]!, state, printed, depth + 1);
  }
  piece(state, printed, list ? ']' : '}');
}

function piece(state: State, printed: Printed, text: string): void {
  printed.length += text.length;
  if (printed.length > BUDGET.stringLength) tooCostly(state, `a string longer than ${BUDGET.stringLength} characters`);
  built(state, text.length, 'a string');
  printed.parts.push(text);
}

function write(state: State, sink: Sink, text: string): void {
  if (text.length === 0) return;
  if (sink.text.length + text.length > sink.max) tooCostly(state, `${sink.what} longer than ${sink.max} characters`);
  built(state, text.length, sink.what);
  sink.text += text;
}

function built(state: State, length: number, what: string): void {
  if (length > BUDGET.stringLength) tooCostly(state, `${what} longer than ${BUDGET.stringLength} characters`);
  state.chars += length;
  if (state.chars > BUDGET.charsBuilt) tooCostly(state, `more than ${BUDGET.charsBuilt} characters built in all`);
  const meter = state.input.meter;
  if (meter?.maxChars === undefined) return;
  meter.chars = (meter.chars ?? 0) + length;
  if (meter.chars > meter.maxChars)
    tooCostly(state, `more than ${meter.maxChars} characters built for all the mails of this request`);
}

function step(state: State, n: number): void {
  state.steps += n;
  if (state.steps > BUDGET.steps) tooCostly(state, `more than ${BUDGET.steps} evaluation steps`);
  const meter = state.input.meter;
  if (!meter) return;
  meter.steps += n;
  if (meter.steps > meter.maxSteps)
    tooCostly(state, `more than ${meter.maxSteps} evaluation steps for all the mails of this request`);
}

function tooCostly(state: State, reason: string): never {
  return fail('TEMPLATE_TOO_COSTLY', `${state.program.label}: line ${state.line}: ${reason}`);
}
