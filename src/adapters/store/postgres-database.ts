import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Sql, SqlDatabase } from './sql.js';

/** Distinct statement texts this process prepares at most (each pooled connection keeps its own copies). */
const MAX_PREPARED = 500;
const preparedNames = new Map<string, string>();

/**
 * A parameterised statement as a named prepared statement: each connection parses (and, once PostgreSQL
 * settles on a generic plan, plans) its text once instead of on every call, which halved the database's
 * CPU per signature (docs/performance.md, "Signature requests"). The name is the text's hash, so one text
 * is one statement on every connection. Statements without parameters (BEGIN, COMMIT, DDL, several
 * statements at once) and texts beyond the first MAX_PREPARED are sent unnamed, as before.
 */
function statement(text: string, values?: unknown[]): pg.QueryConfig {
  if (values === undefined || values.length === 0) return { text, values };
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

async function run<T>(on: pg.Pool | pg.PoolClient, text: string, values?: unknown[]): Promise<T[]> {
  try {
    return (await on.query(statement(text, values))).rows as T[];
  } catch (err) {
    // Outside a transaction the statement is simply sent again, unnamed; inside one the error stands.
    if (unprepareOnChange(text, err) && on instanceof pg.Pool) return (await on.query(text, values)).rows as T[];
    throw err;
  }
}

// int8 (bigint) columns hold millisecond timestamps and counters that fit in a double.
pg.types.setTypeParser(20, (v: string) => Number(v));

function clientSql(client: pg.PoolClient): Sql {
  const sql: Sql = {
    query: <T>(text: string, params?: unknown[]) => run<T>(client, text, params),
    exec: async (text) => {
      await client.query(text);
    },
    transaction: (fn) => fn(sql),
  };
  return sql;
}

/** PostgreSQL through a `pg` pool; `DATABASE_URL` may carry `?schema=` to isolate a test run. */
export function openPostgres(url: string, opts: { max?: number } = {}): SqlDatabase & { pool: pg.Pool } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,40}$/.test(schema))
    throw new Error('DATABASE_URL schema must be a lower-case identifier');
  u.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: u.toString(),
    max: opts.max ?? 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  return {
    kind: 'postgres',
    schema: schema ?? undefined,
    pool,
    query: <T>(text: string, params?: unknown[]) => run<T>(pool, text, params),
    exec: async (text) => {
      await pool.query(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(clientSql(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
