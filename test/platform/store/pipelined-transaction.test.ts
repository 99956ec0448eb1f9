/**
 * Transactions on PostgreSQL are pipelined: BEGIN leaves with the first statement, the statements of one
 * moment leave in one socket write, and `write`s are not waited for. What must still hold: a failed write
 * fails the transaction with its own error and keeps nothing of it, a read after it reports that error
 * (not PostgreSQL's "transaction is aborted"), an empty transaction sends nothing, and the commit is real.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openPostgres } from '../../../src/adapters/store/postgres-database.js';
import { scratchPostgres, storeKinds } from '../../support/stores.js';

const postgres = (await storeKinds()).find((k) => k.name === 'postgres')!;

describe('pipelined transactions on PostgreSQL', { skip: postgres.skip }, () => {
  let db: ReturnType<typeof openPostgres>;
  let scratch: Awaited<ReturnType<typeof scratchPostgres>> | undefined;
  const names = async () => (await db.query<{ name: string }>('SELECT name FROM thing ORDER BY id')).map((r) => r.name);
  before(async () => {
    scratch = await scratchPostgres('CREATE TABLE thing (id int PRIMARY KEY, name text NOT NULL)', 2);
    db = scratch.db;
  });
  after(() => scratch?.close());

  it('writes not waited for are committed with the transaction, in order, and reads see them', async () => {
    const seen = await db.transaction(async (tx) => {
      await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [1, 'one']);
      await tx.write('UPDATE thing SET name = $2 WHERE id = $1', [1, 'one, renamed']);
      await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [2, 'two']);
      return tx.query<{ n: number }>('SELECT count(*)::int AS n FROM thing');
    });
    assert.deepEqual(seen, [{ n: 2 }], 'a read in the transaction sees the writes sent before it');
    assert.deepEqual(await names(), ['one, renamed', 'two']);
  });

  it('a failed write fails the transaction with its own error and keeps none of it', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [3, 'three']);
        await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [1, 'duplicate']);
        await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [4, 'four']);
      }),
      (err: { code?: string }) => err.code === '23505',
    );
    assert.deepEqual(await names(), ['one, renamed', 'two'], 'neither the write before nor the one after is kept');
  });

  it('a read after a failed write reports the write’s error, not “current transaction is aborted”', async () => {
    let readError: { code?: string } | undefined;
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [5, null]);
        try {
          await tx.query('SELECT name FROM thing WHERE id = $1', [1]);
        } catch (err) {
          readError = err as { code?: string };
          throw err;
        }
      }),
      (err: { code?: string }) => err.code === '23502',
    );
    assert.equal(readError?.code, '23502', 'the NOT NULL violation of the write');
    assert.deepEqual(await names(), ['one, renamed', 'two']);
  });

  it('an error thrown by the caller rolls the sent writes back', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [6, 'six']);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual(await names(), ['one, renamed', 'two']);
  });

  it('rows of writeRows given together leave as one statement, before anything issued after them', async () => {
    const insert = `INSERT INTO thing (id, name) SELECT id, name FROM jsonb_to_recordset($1::jsonb) AS r(id int, name text)`;
    const statements: string[] = [];
    const seen = await statementsOf(db.pool, statements, () =>
      db.transaction(async (tx) => {
        await Promise.all([10, 11, 12].map((id) => tx.writeRows(insert, [{ id, name: `r${id}` }])));
        return tx.query<{ n: number }>('SELECT count(*)::int AS n FROM thing WHERE id >= 10');
      }),
    );
    assert.deepEqual(seen, [{ n: 3 }], 'the read comes after the held rows');
    assert.deepEqual(
      statements.map((s) => s.slice(0, 12)),
      ['BEGIN', 'INSERT INTO ', 'SELECT count', 'COMMIT'],
      'one insert for the three calls',
    );
    // Held rows alone, the transaction ending in the same tick: they are sent with the commit.
    await db.transaction((tx) => tx.writeRows(insert, [{ id: 13, name: 'r13' }]));
    assert.deepEqual((await names()).slice(-4), ['r10', 'r11', 'r12', 'r13']);
    await assert.rejects(
      db.transaction((tx) =>
        tx.writeRows(insert, [
          { id: 14, name: 'r14' },
          { id: 13, name: 'again' },
        ]),
      ),
      (err: { code?: string }) => err.code === '23505',
    );
    assert.equal((await names()).includes('r14'), false, 'a failed held write fails its transaction');
  });

  it('statements issued together leave in one socket write, and an empty transaction sends nothing', async () => {
    const writes = await socketWritesOf(db.pool, () => db.transaction(async () => 'nothing'));
    assert.equal(writes, 0, 'no BEGIN, no COMMIT for a transaction without statements');
    const together = await socketWritesOf(db.pool, () =>
      db.transaction(async (tx) => {
        await Promise.all(
          [7, 8, 9].map((id) => tx.write('INSERT INTO thing (id, name) VALUES ($1, $2)', [id, `n${id}`])),
        );
        const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM thing WHERE id BETWEEN 7 AND 9');
        assert.equal(row!.n, 3, 'the read sees the three writes sent with it');
      }),
    );
    assert.equal(together, 2, 'BEGIN, three inserts and the read in one write; the COMMIT in a second');
    assert.deepEqual((await names()).slice(2, 5), ['n7', 'n8', 'n9']);
  });
});

/** The texts of the statements the pool's connections are given while `run` runs, in order. */
async function statementsOf<T>(pool: pg.Pool, into: string[], run: () => Promise<T>): Promise<T> {
  const restore: (() => void)[] = [];
  const onAcquire = (client: pg.PoolClient) => {
    const original = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
      into.push(typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string }).text));
      return original(...a);
    };
    restore.push(() => delete (client as unknown as { query?: unknown }).query);
  };
  pool.on('acquire', onAcquire);
  try {
    return await run();
  } finally {
    pool.off('acquire', onAcquire);
    for (const r of restore) r();
  }
}

/** Socket writes made by the pool's connections while `run` runs. */
async function socketWritesOf(pool: pg.Pool, run: () => Promise<unknown>): Promise<number> {
  let writes = 0;
  const restore: (() => void)[] = [];
  const onAcquire = (client: pg.PoolClient) => {
    const stream = (client as unknown as { connection: { stream: Record<string, unknown> } }).connection.stream;
    for (const method of ['_write', '_writev']) {
      const original = stream[method] as (...a: unknown[]) => unknown;
      stream[method] = function (this: unknown, ...a: unknown[]) {
        writes += 1;
        return original.apply(this, a);
      };
      restore.push(() => delete stream[method]);
    }
  };
  pool.on('acquire', onAcquire);
  try {
    await run();
  } finally {
    pool.off('acquire', onAcquire);
    for (const r of restore) r();
  }
  return writes;
}
