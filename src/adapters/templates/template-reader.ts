/**
 * The cursor our template parser reads with (template-parse.ts, template-parse-expr.ts): a position in the
 * source that only moves forward, sticky regular expressions tried at that position only, and a nesting
 * counter shared by the template and the strings inside it. Every token is matched where it starts, never
 * searched for from every position, so a parse takes time linear in the source's length.
 */
import { fail } from '../../core/errors.js';
import type { Macro, Node } from './template-ir.js';

/** Blocks and expressions nested deeper than this are refused: the parser's and the interpreter's recursion stay shallow. */
export const MAX_NESTING = 64;

/** What the whole template shares with the strings parsed inside it. */
export interface Shared {
  readonly label: string;
  readonly macros: Map<string, Macro>;
  /** Macro calls, checked once the whole template is read (a macro may be called before it is written). */
  readonly calls: { readonly name: string; readonly line: number }[];
  /** How deep the current block or expression is nested (strings inside strings included). */
  depth: number;
  /** Parses the text of a double-quoted string that holds `$` or `#` (given by template-parse.ts). */
  readonly parseString: (text: string, line: number) => Node[];
}

export interface Reader {
  readonly src: string;
  pos: number;
  /** The template's line on which `src` starts, minus one (a string's lines count from where it is). */
  readonly lineBase: number;
  /** Inside a double-quoted string: no macro may be defined there. */
  readonly inString: boolean;
  readonly shared: Shared;
  /** Offsets of the starts of `src`'s lines, made on the first error or node that needs a line. */
  lineStarts?: number[];
  /** Whether the last thing read was a directive or a comment (a line break right after it is left out). */
  afterDirective: boolean;
  /** The offsets past which no `*#` or `]]#` is left (an unclosed `#*` or `#[[` is not searched twice). */
  readonly noCloseFrom: { comment: number; raw: number };
}

export function reader(
  src: string,
  { lineBase, inString }: { readonly lineBase: number; readonly inString: boolean },
  shared: Shared,
): Reader {
  return {
    src,
    pos: 0,
    lineBase,
    inString,
    shared,
    afterDirective: false,
    noCloseFrom: { comment: Infinity, raw: Infinity },
  };
}

/** The template's line of offset `pos` (binary search over the line starts). */
export function lineAt(r: Reader, pos = r.pos): number {
  const starts = (r.lineStarts ??= lineStartsOf(r.src));
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= pos) low = mid;
    else high = mid - 1;
  }
  return r.lineBase + low + 1;
}

function lineStartsOf(src: string): number[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Matches a sticky `re` at the cursor; on success the cursor moves past it. */
export function take(r: Reader, re: RegExp): RegExpExecArray | null {
  re.lastIndex = r.pos;
  const m = re.exec(r.src);
  if (m) r.pos += m[0].length;
  return m;
}

/** Whether a sticky `re` matches at the cursor (the cursor does not move). */
export function sees(r: Reader, re: RegExp, at = r.pos): boolean {
  re.lastIndex = at;
  return re.test(r.src);
}

const SPACE = /\s*/y;
export function skipSpace(r: Reader): void {
  take(r, SPACE);
}

/** Takes `text` at the cursor (after blanks), or refuses the template as unparsable. */
export function expect(r: Reader, text: string, what = `"${text}"`): void {
  skipSpace(r);
  if (!r.src.startsWith(text, r.pos)) cannotParse(r, `${what} expected`);
  r.pos += text.length;
}

/** Goes one level deeper (the caller restores the depth), refusing what nests more than {@link MAX_NESTING} deep. */
export function deeper(r: Reader): void {
  if (r.shared.depth >= MAX_NESTING) refuse(r, `blocks or expressions nested more than ${MAX_NESTING} deep`);
  r.shared.depth += 1;
}

/** Runs `parse` one level deeper, refusing what nests more than {@link MAX_NESTING} deep. */
export function nested<T>(r: Reader, parse: () => T): T {
  deeper(r);
  try {
    return parse();
  } finally {
    r.shared.depth -= 1;
  }
}

export function cannotParse(r: Reader, reason: string, pos = r.pos): never {
  const near = r.src.slice(pos, pos + 20).replace(/\s+/g, ' ');
  return refuse(r, `cannot parse (${reason}${pos < r.src.length ? ` at "${near}"` : ' at the end'})`, pos);
}

export function refuse(r: Reader, reason: string, pos = r.pos): never {
  return fail('INVALID_TEMPLATE', `${r.shared.label}: line ${lineAt(r, pos)}: ${reason}`);
}
