import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { SqlDatabase } from './sql.js';

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_140_422_031;

/**
 * Creates the store's schema (a `?schema=` of DATABASE_URL) and the migrations table under the migrations'
 * lock: `IF NOT EXISTS` alone still collides on the catalogue's unique indexes when processes start together.
 */
async function prepareSchema(db: SqlDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    if (db.schema) await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migration (id text PRIMARY KEY, applied_at bigint NOT NULL)');
  });
}

/**
 * Applies the migrations that have not run yet, each in its own transaction, under an advisory lock so
 * that several processes starting together migrate once. Returns the ids applied by this call.
 */
export async function migrate(
  db: SqlDatabase,
  now: () => number,
  migrations: readonly Migration[] = allMigrations,
): Promise<string[]> {
  await prepareSchema(db);
  const applied: string[] = [];
  for (const m of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const done = await tx.query('SELECT 1 FROM schema_migration WHERE id = $1', [m.id]);
      if (done.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migration (id, applied_at) VALUES ($1, $2)', [m.id, now()]);
      return true;
    });
    if (ran) applied.push(m.id);
  }
  return applied;
}
