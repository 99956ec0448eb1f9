import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import fs from 'node:fs/promises';
import type { Sql, SqlDatabase } from './sql.js';

const parsers = { [types.INT8]: (v: string) => Number(v) };

function txSql(tx: Transaction): Sql {
  const sql: Sql = {
    query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
    exec: async (text) => {
      await tx.exec(text);
    },
    transaction: (fn) => fn(sql),
  };
  return sql;
}

/** The embedded PostgreSQL (PGlite, WASM) persisted in `dir`, or in memory when `dir` is undefined. */
export async function openEmbedded(dir: string | undefined): Promise<SqlDatabase & { pglite: PGlite }> {
  if (dir !== undefined) await fs.mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir === undefined ? undefined : dir, { parsers });
  return {
    kind: 'embedded',
    pglite: db,
    query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params)).rows,
    exec: async (text) => {
      await db.exec(text);
    },
    transaction: (fn) => db.transaction((tx) => fn(txSql(tx))),
    close: () => db.close(),
  };
}
