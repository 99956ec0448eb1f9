/**
 * The compiled form of a template: a small tree of our own, built by our parser (template-parse.ts) once, at
 * compile time, holding only what the accepted language can say. The interpreter walks this tree and
 * nothing else: no parsing happens while a mail is rendered.
 */

/** A value a template works with: plain data only (lists and null-prototype maps, frozen). */
export type Value = string | number | boolean | null | readonly Value[] | DataMap;
export interface DataMap {
  readonly [key: string]: Value;
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||';

export type Expr =
  | { readonly kind: 'literal'; readonly value: Value }
  /** A double-quoted string: its pieces are rendered into a new string. */
  | { readonly kind: 'interpolated'; readonly parts: readonly Node[] }
  | { readonly kind: 'list'; readonly items: readonly Expr[] }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, Expr])[] }
  | { readonly kind: 'range'; readonly from: Expr; readonly to: Expr }
  /** `$name`, `$name.key`, `$name[0]`: a lookup in the render's own scope, then in its data. */
  | { readonly kind: 'lookup'; readonly name: string; readonly path: readonly (string | number)[] }
  /** `$raw.key…`: a lookup in the render's unescaped data. */
  | { readonly kind: 'raw'; readonly path: readonly [string, ...(string | number)[]] }
  | { readonly kind: 'tool'; readonly name: string; readonly args: readonly Expr[] }
  | { readonly kind: 'not' | 'minus'; readonly operand: Expr }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr };

export type Node =
  | { readonly kind: 'text'; readonly text: string }
  /** A reference written out; `source` is printed when it has no value (unless `quiet`, for `$!…`). */
  | {
      readonly kind: 'output';
      readonly expr: Expr;
      readonly quiet: boolean;
      readonly source: string;
      readonly line: number;
    }
  | { readonly kind: 'set'; readonly name: string; readonly expr: Expr; readonly line: number }
  | {
      readonly kind: 'if';
      readonly branches: readonly { readonly condition: Expr | null; readonly body: readonly Node[] }[];
      readonly line: number;
    }
  | {
      readonly kind: 'foreach';
      readonly name: string;
      readonly items: Expr;
      readonly body: readonly Node[];
      readonly line: number;
    }
  | { readonly kind: 'call'; readonly macro: string; readonly args: readonly Expr[]; readonly line: number };

export interface Macro {
  readonly params: readonly string[];
  readonly body: readonly Node[];
}

export interface Program {
  readonly label: string;
  readonly body: readonly Node[];
  /** The template's macros, by name (a Map: no name reaches a prototype). */
  readonly macros: ReadonlyMap<string, Macro>;
}
