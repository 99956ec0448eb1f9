/**
 * The PostgreSQL adapter sends parameterised statements as named prepared statements: each connection
 * keeps them, and a table changed under a kept `SELECT *` (another process migrating) must not leave the
 * statement failing for good.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openPostgres } from '../../../src/adapters/store/postgres-database.js';
import { POSTGRES_URL, scratchPostgres, storeKinds } from '../../support/stores.js';

const postgres = (await storeKinds()).find((k) => k.name === 'postgres')!;

describe('prepared statements on PostgreSQL', { skip: postgres.skip }, () => {
  let db: ReturnType<typeof openPostgres>;
  let scratch: Awaited<ReturnType<typeof scratchPostgres>> | undefined;
  before(async () => {
    scratch = await scratchPostgres('CREATE TABLE thing (id int PRIMARY KEY, name text)', 1);
    db = scratch.db;
  });
  after(() => scratch?.close());

  it('a parameterised statement is prepared once per connection and reused', async () => {
    await db.query('INSERT INTO thing (id, name) VALUES ($1, $2)', [1, 'one']);
    assert.deepEqual(await db.query('SELECT name FROM thing WHERE id = $1', [1]), [{ name: 'one' }]);
    assert.deepEqual(await db.query('SELECT name FROM thing WHERE id = $1', [2]), []);
    const kept = await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    assert.ok(
      kept.some((k) => k.statement === 'SELECT name FROM thing WHERE id = $1'),
      'the connection keeps the statement',
    );
  });

  it('a column added under a prepared SELECT * is answered with the new row type, outside a transaction', async () => {
    const select = 'SELECT * FROM thing WHERE id = $1';
    assert.deepEqual(await db.query(select, [1]), [{ id: 1, name: 'one' }]);
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`ALTER TABLE ${scratch!.schema}.thing ADD COLUMN extra text DEFAULT 'x'`);
    await admin.end();
    assert.deepEqual(await db.query(select, [1]), [{ id: 1, name: 'one', extra: 'x' }]);
    assert.deepEqual(await db.query(select, [1]), [{ id: 1, name: 'one', extra: 'x' }], 'and from then on');
  });
});
