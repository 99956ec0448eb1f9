import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Sql, SqlDatabase } from './sql.js';

/** Distinct statement texts this process prepares at most (each pooled connection keeps its own copies). */
const MAX_PREPARED = 500;
const preparedNames = new Map<string, string>();

/**
 * A parameterised statement as a named prepared statement: each connection parses (and, once PostgreSQL
 * settles on a generic plan, plans) its text once instead of on every call (docs/performance-log-archive.md,
 * "Signature requests"). The name is the text's hash, so one text is one statement on every connection. Statements without parameters (BEGIN, COMMIT, DDL, several
 * statements at once) and texts beyond the first MAX_PREPARED are sent unnamed.
 */
function statement(text: string, values: unknown[] | undefined, named: boolean): pg.QueryConfig {
  if (!named || values === undefined || values.length === 0) return { text, values };
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `ps_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name === undefined || name === '' ? { text, values } : { name, text, values };
}

/**
 * A table changed under a prepared `SELECT *` (another process migrated the schema): PostgreSQL refuses
 * the kept statement. Its text is sent unnamed from then on, and the error is reported as it came.
 */
function unprepareOnChange(text: string, err: unknown): boolean {
  const changed = (err as { code?: string }).code === '0A000' && /cached plan/.test(String((err as Error).message));
  if (changed) preparedNames.set(text, '');
  return changed;
}

/** The rows of an answer; a text of several statements answers one result each, their rows in order. */
function rowsOf<T>(answer: pg.QueryResult | pg.QueryResult[]): T[] {
  return (Array.isArray(answer) ? answer.flatMap((r) => r.rows) : answer.rows) as T[];
}

async function run<T>(on: pg.Pool | pg.PoolClient, named: boolean, text: string, values?: unknown[]): Promise<T[]> {
  try {
    return rowsOf<T>(await on.query(statement(text, values, named)));
  } catch (err) {
    // Outside a transaction the statement is simply sent again, unnamed; inside one the error stands.
    if (unprepareOnChange(text, err) && on instanceof pg.Pool) return (await on.query(text, values)).rows as T[];
    throw err;
  }
}

// int8 (bigint) columns hold millisecond timestamps and counters that fit in a double.
pg.types.setTypeParser(20, (v: string) => Number(v));

/** The socket under a client, to gather the statements of one moment into one write (undefined if hidden). */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection
    ?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/**
 * One transaction on a pipelined connection. BEGIN is sent with the first statement, not before it;
 * statements issued in the same turn of the event loop leave in one socket write (the socket is corked
 * until the next tick); {@link Sql.write}s are not waited for, and the commit waits for them all; the rows
 * of {@link Sql.writeRows} are held and sent as one statement per text, in front of the next other
 * statement or of the COMMIT (so those of units finishing in different ticks still leave as one statement,
 * and a transaction whose last statements are writes sends them with its COMMIT, in one socket write,
 * rather than in a write of their own one tick before it). So the signatures sharing a
 * transaction cost it a few round trips and statements in all (docs/performance-log-archive.md, "Signature requests").
 * A failed write aborts the transaction: later statements fail with 25P02, reported as the write's own
 * error, and the COMMIT sent behind it rolls back.
 */
class PipelinedTransaction {
  private readonly pending: Promise<void>[] = [];
  /** Rows of writeRows not sent yet, by statement text, in the order the texts came. */
  private held = new Map<string, object[]>();
  private failure: unknown = undefined;
  private begun = false;
  private corked = false;

  constructor(
    private readonly client: pg.PoolClient,
    /** Statements are named prepared statements (off behind a pooler that does not keep them). */
    private readonly named: boolean,
  ) {}

  readonly sql: Sql = {
    query: async <T>(text: string, params?: unknown[]) => {
      try {
        return (await this.send(statement(text, params, this.named))).rows as T[];
      } catch (err) {
        throw this.failure !== undefined && (err as { code?: string }).code === '25P02' ? this.failure : err;
      }
    },
    write: async (text, params) => {
      this.track(this.send(statement(text, params, this.named)));
    },
    writeRows: async (text, rows) => {
      const held = this.held.get(text);
      if (held) held.push(...rows);
      else this.held.set(text, [...rows]);
    },
    exec: async (text) => {
      await this.sql.query(text);
    },
    transaction: (fn) => fn(this.sql),
  };

  async commit(): Promise<void> {
    if (!this.begun && this.held.size === 0) return;
    const committed = this.send({ text: 'COMMIT' });
    await Promise.all(this.pending);
    const answer = await committed;
    if (this.failure !== undefined) throw this.failure;
    if (answer.command !== 'COMMIT') throw new Error(`the transaction ended with ${answer.command}, not COMMIT`);
  }

  async rollback(): Promise<void> {
    this.held.clear();
    if (!this.begun) return;
    await this.send({ text: 'ROLLBACK' }).catch(() => undefined);
    await Promise.all(this.pending);
  }

  private send(config: pg.QueryConfig): Promise<pg.QueryResult> {
    this.gather();
    this.sendHeld();
    if (!this.begun) {
      this.begun = true;
      this.track(this.client.query('BEGIN'));
    }
    return this.client.query(config);
  }

  /** The held rows, one statement per text (BEGIN first when none was sent). */
  private sendHeld(): void {
    if (this.held.size === 0) return;
    const held = this.held;
    this.held = new Map();
    for (const [text, rows] of held) this.track(this.send(statement(text, [JSON.stringify(rows)], this.named)));
  }

  /** A write's answer, waited for by the commit; its failure fails the transaction. */
  private track(answer: Promise<unknown>): void {
    this.pending.push(
      answer.then(
        () => undefined,
        (err: unknown) => {
          this.failure ??= err;
        },
      ),
    );
  }

  /** Until the next tick the socket is corked, so what is sent until then leaves in one write. */
  private gather(): void {
    if (this.corked) return;
    this.corked = true;
    const socket = socketOf(this.client);
    socket?.cork();
    process.nextTick(() => {
      this.corked = false;
      socket?.uncork();
    });
  }
}

export interface PostgresOptions {
  readonly max?: number;
  /** Named prepared statements (default true); false behind a pooler in transaction mode that does not keep them. */
  readonly preparedStatements?: boolean;
}

/** PostgreSQL through a `pg` pool; `DATABASE_URL` may carry `?schema=` to isolate a test run. */
export function openPostgres(url: string, opts: PostgresOptions = {}): SqlDatabase & { pool: pg.Pool } {
  const named = opts.preparedStatements ?? true;
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,40}$/.test(schema))
    throw new Error('DATABASE_URL schema must be a lower-case identifier');
  u.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: u.toString(),
    max: opts.max ?? 10,
    // A statement is sent without waiting for the answer to the one before (transactions use it).
    pipeline: true,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  return {
    kind: 'postgres',
    schema: schema ?? undefined,
    pool,
    query: <T>(text: string, params?: unknown[]) => run<T>(pool, named, text, params),
    write: async (text, params) => {
      await run(pool, named, text, params);
    },
    writeRows: async (text, rows) => {
      await run(pool, named, text, [JSON.stringify(rows)]);
    },
    exec: async (text) => {
      await pool.query(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx = new PipelinedTransaction(client, named);
      try {
        const result = await fn(tx.sql);
        await tx.commit();
        return result;
      } catch (err) {
        await tx.rollback();
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
