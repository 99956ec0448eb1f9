/**
 * The small SQL surface both store adapters implement: PostgreSQL through `pg` and the embedded
 * PostgreSQL (PGlite). Repositories are written once against it, so both stores run the same SQL.
 */
export interface Sql {
  /** One parameterised statement; rows as plain objects. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * A statement whose rows nobody reads (an insert, an update whose count does not matter). Outside a
   * transaction it runs as {@link query}. Inside one, PostgreSQL is sent it at once, in the same socket write
   * as the statements issued beside it, and not waited for: the transaction's end waits for it, and its
   * failure fails the transaction (the commit then rolls back). Saves a round trip per write.
   */
  write(text: string, params?: unknown[]): Promise<void>;
  /**
   * A {@link write} whose one parameter `$1::jsonb` is a JSON array of rows. Inside a transaction, the rows
   * given for the same text until the next other statement (or the commit) leave as one statement: the
   * signatures sharing a transaction write their anchors, say, in one insert.
   * Statements keep their order: the held rows leave before any statement issued after them.
   */
  writeRows(text: string, rows: readonly object[]): Promise<void>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `fn` in one transaction; a nested call joins the outer transaction. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

export interface SqlDatabase extends Sql {
  readonly kind: 'postgres' | 'embedded';
  /** The schema the store lives in when not the default one (a `?schema=` in DATABASE_URL). */
  readonly schema?: string;
  /** Several statements without parameters, the rows of each in order (the embedded store's; `query` does it on PostgreSQL). */
  execRows?<T = Record<string, unknown>>(text: string): Promise<T[]>;
  close(): Promise<void>;
}
