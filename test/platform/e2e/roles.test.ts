// tier: slow (spawned processes)
/**
 * One binary, several roles: an api process and a worker process against the same PostgreSQL; the
 * operator commands on the same database; graceful shutdown on SIGTERM.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { freePort, runProofseal, startProofseal, waitForOutput, type Proc } from '../../support/processes.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';
import { waitUntil } from '../../support/wait.js';

const [, postgres] = await storeKinds();

describe('api and worker processes on one PostgreSQL', { skip: postgres!.skip }, () => {
  const schema = newSchemaName();
  const env = {
    DATABASE_URL: schemaUrl(schema),
    DATA_DIR: `/tmp/proofseal-roles-${schema}`,
    SECRET_KEY: 'k'.repeat(40),
  };
  const procs: Proc[] = [];
  let port = 0;
  let client: pg.Client;

  before(async () => {
    client = new pg.Client({ connectionString: schemaUrl(schema).split('?')[0] });
    await client.connect();
  });
  after(async () => {
    for (const p of procs) await p.stop();
    await client.end();
    await dropSchema(schema);
  });

  it('operator commands create an account and a token on the shared database', async () => {
    const created = await runProofseal(
      ['account', 'create', '--email', 'ops@example.com', '--password', 'operator password'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const dup = await runProofseal(
      ['account', 'create', '--email', 'OPS@example.com', '--password', 'operator password'],
      env,
    );
    assert.equal(dup.code, 3, 'a duplicate is refused by a domain rule');
    assert.match(dup.stderr, /exists/);
    const bad = await runProofseal(['account', 'create', '--email', 'x@example.com'], env);
    assert.equal(bad.code, 2, 'a usage error');
  });

  it('an api process serves what the operator created; it works no jobs', async () => {
    port = await freePort();
    // At debug, a request is logged when its headers are read (at info, only once answered): the SIGTERM test waits for it.
    const apiEnv = { ...env, PORT: String(port), LOG_LEVEL: 'debug' };
    procs.push(await startProofseal(['start', '--role', 'api'], apiEnv, /proofseal started/));
    const token = await runProofseal(['token', 'create', '--email', 'ops@example.com', '--name', 'roles'], env);
    assert.equal(token.code, 0, token.stderr);
    const res = await fetch(`http://127.0.0.1:${port}/v1/tokens`, {
      headers: { authorization: `Bearer ${token.stdout.trim()}` },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { name: string }[])[0]!.name, 'roles');
    const old = Date.now() - 90 * 24 * 3600 * 1000;
    const {
      rows: [acc],
    } = await client.query(`SELECT id FROM ${schema}.account LIMIT 1`);
    await client.query(
      `INSERT INTO ${schema}.api_token (id, account_id, token_hash, created, revoked_at) VALUES ($1, $2, 'old', $3, $3)`,
      [randomUUID(), acc.id, old],
    );
    // No waiting needed: a process declares its queues before it says it started, and only a process
    // that works jobs schedules them. So the purge queue exists, and an api process has queued nothing in it.
    const jobs = await client.query<{ queued: number; declared: number }>(
      `SELECT (SELECT count(*)::int FROM ${schema}_pgboss.job WHERE name = 'maintenance.purge-tokens') AS queued,
              (SELECT count(*)::int FROM ${schema}_pgboss.queue WHERE name = 'maintenance.purge-tokens') AS declared`,
    );
    assert.deepEqual(jobs.rows[0], { queued: 0, declared: 1 }, 'the api declared the maintenance job, never queued it');
    const { rows } = await client.query(`SELECT 1 FROM ${schema}.api_token WHERE token_hash = 'old'`);
    assert.equal(rows.length, 1, 'the api role ran no maintenance job');
  });

  it("a worker process runs the scheduled jobs on the same database, and anchors the api's anchors", async () => {
    const token = (await runProofseal(['token', 'create', '--email', 'ops@example.com'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const hash = randomUUID().replace(/-/g, '').padEnd(64, 'a');
    const created = await fetch(`http://127.0.0.1:${port}/v1/anchor`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'roles', hash }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    const { id } = (await created.json()) as { id: string };
    procs.push(await startProofseal(['start', '--role', 'worker'], env, /proofseal started/));
    const status = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${port}/v1/anchor/${id}`, { headers: auth })).json()) as {
          status: string;
        }
      ).status;
    await waitUntil(
      async () => (await status()) !== 'WAIT',
      'the worker to batch and broadcast the anchor the api process took',
      30_000,
      250,
    );
    await waitUntil(
      async () => (await client.query(`SELECT 1 FROM ${schema}.api_token WHERE token_hash = 'old'`)).rows.length === 0,
      'the worker to purge the long-revoked token',
      20_000,
      250,
    );
  });

  it('SIGTERM lets an in-flight request finish, then the process exits 0', async () => {
    const api = procs[0]!;
    const token = (await runProofseal(['token', 'create', '--email', 'ops@example.com'], env)).stdout.trim();
    // A request whose body is still arriving when the signal comes.
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/v1/user',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
    });
    req.write('{"firstName": ');
    // The server has the request (it logs it once the headers are read), then the signal is being handled.
    await waitForOutput(api, /"url":"\/v1\/user"[^\n]*incoming request/, 'the PUT /v1/user request logged');
    const exited = api.stop();
    await waitForOutput(api, /shutting down/, 'the shutdown log line');
    req.end('"Graceful"}');
    assert.equal(await answered, 200, api.output().slice(-2000));
    assert.equal(await exited, 0, api.output().slice(-2000));
    assert.match(api.output(), /shutting down/);
    const { rows } = await client.query(`SELECT first_name FROM ${schema}.account WHERE email = 'ops@example.com'`);
    assert.equal(rows[0].first_name, 'Graceful');
  });
});
