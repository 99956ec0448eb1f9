/**
 * A bare database (no store around it) of either kind, for the tests of one migration: migrated up to the
 * one under test, given the rows of the schema before it, then migrated the rest of the way.
 */
import assert from 'node:assert/strict';
import { migrations } from '../../src/adapters/store/migrations/index.js';
import { openEmbedded } from '../../src/adapters/store/embedded-database.js';
import { openPostgres } from '../../src/adapters/store/postgres-database.js';
import type { SqlDatabase } from '../../src/adapters/store/sql.js';
import { dropSchema, newSchemaName, schemaUrl } from './stores.js';

/** The migrations that come before `id` (asserted to be in the list, and not first). */
export function migrationsBefore(id: string): typeof migrations {
  const at = migrations.findIndex((m) => m.id === id);
  assert.ok(at > 0, `migration ${id} is in the list`);
  return migrations.slice(0, at);
}

/** A fresh, empty database: an in-memory PGlite, or a schema of its own on the test PostgreSQL (dropped by close). */
export async function openBareDatabase(
  kind: 'embedded' | 'postgres',
): Promise<{ db: SqlDatabase; close(): Promise<void> }> {
  if (kind === 'embedded') {
    const db = await openEmbedded(undefined);
    return { db, close: () => db.close() };
  }
  const schema = newSchemaName();
  const db = openPostgres(schemaUrl(schema), { max: 2 });
  return {
    db,
    close: async () => {
      await db.close();
      await dropSchema(schema);
    },
  };
}
