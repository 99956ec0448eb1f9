import pg from 'pg';
import type { Sql, SqlDatabase } from './sql.js';

// int8 (bigint) columns hold millisecond timestamps and counters that fit in a double.
pg.types.setTypeParser(20, (v: string) => Number(v));

function clientSql(client: pg.PoolClient): Sql {
  const sql: Sql = {
    query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
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
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[],
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
