/**
 * The two stores every contract test runs on: the embedded PostgreSQL (PGlite, in memory) and a real
 * PostgreSQL server (TEST_DATABASE_URL, default 127.0.0.1:5432/test) in a schema of its own, dropped
 * afterwards. When the server does not answer: on CI (CI=true) the suite fails; elsewhere the
 * PostgreSQL cases are reported as skipped with the reason.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../src/adapters/store/postgres-database.js';
import { openStore, type OpenedStore } from '../../src/adapters/store/create-store.js';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const onCi = process.env.CI === 'true';

export interface StoreKind {
  readonly name: 'embedded' | 'postgres';
  /** Reason to skip (only off CI), or false. */
  readonly skip: string | false;
  open(): Promise<TestStore>;
}

export interface TestStore extends OpenedStore {
  /** The DATABASE_URL of this store (postgres), for processes a test spawns. */
  readonly url: string | undefined;
  /** Closes and removes the store's data. */
  destroy(): Promise<void>;
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function schemaUrl(schema: string): string {
  const u = new URL(POSTGRES_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A new schema holding the tables of `ddl` (unqualified names), and the PostgreSQL adapter opened on it
 * with `max` connections, for the adapter's own tests; `close` drops the schema.
 */
export async function scratchPostgres(
  ddl: string,
  max: number,
): Promise<{ db: ReturnType<typeof openPostgres>; schema: string; close(): Promise<void> }> {
  const schema = newSchemaName();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}; ${ddl}`);
  } finally {
    await admin.end();
  }
  const db = openPostgres(schemaUrl(schema), { max });
  return {
    db,
    schema,
    close: async () => {
      await db.close();
      await dropSchema(schema);
    },
  };
}

export function newSchemaName(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

export async function storeKinds(): Promise<StoreKind[]> {
  const pgUp = await postgresAnswers();
  if (!pgUp && onCi) throw new Error(`PostgreSQL does not answer at ${POSTGRES_URL}; CI requires it (see .ci/run)`);
  return [
    {
      name: 'embedded',
      skip: false,
      async open() {
        const s = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
        return { ...s, url: undefined, destroy: () => s.close() };
      },
    },
    {
      name: 'postgres',
      skip: pgUp ? false : `PostgreSQL does not answer at ${POSTGRES_URL}`,
      async open() {
        const schema = newSchemaName();
        const url = schemaUrl(schema);
        const s = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now });
        return {
          ...s,
          url,
          destroy: async () => {
            await s.close();
            await dropSchema(schema);
          },
        };
      },
    },
  ];
}
