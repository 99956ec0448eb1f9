// tier: slow (spawned processes)
/**
 * Start with an unreachable database (issue 12): one clear line, no stack trace; `--role api|worker`
 * retries with backoff for DATABASE_WAIT_SECONDS, then gives up with the same line; a database that
 * comes up while it waits is used.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { freePort, runProofseal, startProofseal } from '../../support/processes.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';

const [, postgres] = await storeKinds();

const env = (port: number, extra: Record<string, string> = {}) => ({
  DATABASE_URL: `postgres://proofseal@127.0.0.1:${port}/proofseal`,
  DATA_DIR: `/tmp/proofseal-unreachable-${port}`,
  SECRET_KEY: 's'.repeat(40),
  LOG_LEVEL: 'warn',
  ...extra,
});

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim() !== '');
}

describe('start with an unreachable database', () => {
  it('an operator command fails at once with one line', async () => {
    const port = await freePort();
    const r = await runProofseal(['migrate'], env(port));
    assert.equal(r.code, 1);
    assert.deepEqual(stderrLines(r.stderr), [
      `proofseal: cannot reach the database at 127.0.0.1:${port} (ECONNREFUSED): check DATABASE_URL`,
    ]);
    assert.ok(!r.stdout.includes('retrying'), `an operator command does not wait for the database:\n${r.stdout}`);
  });

  it('--role worker retries with backoff for DATABASE_WAIT_SECONDS, then stops with one line', async () => {
    const port = await freePort();
    const t = performance.now();
    const r = await runProofseal(['start', '--role', 'worker'], env(port, { DATABASE_WAIT_SECONDS: '3' }));
    const seconds = (performance.now() - t) / 1000;
    assert.equal(r.code, 1);
    const lines = stderrLines(r.stderr);
    assert.equal(
      lines.at(-1),
      `proofseal: cannot reach the database at 127.0.0.1:${port} (ECONNREFUSED) after waiting 3 s (DATABASE_WAIT_SECONDS): check DATABASE_URL`,
    );
    const retries = r.stdout.split('\n').filter((l) => l.includes('database not reachable yet, retrying'));
    assert.ok(retries.length >= 2, `retried with backoff:\n${r.stdout}`);
    assert.ok(!/\n\s+at /.test(r.stderr + r.stdout), 'no stack trace');
    assert.ok(seconds >= 2.5, `waited ${seconds} s`);
  });

  it('--role api keeps waiting while something accepts and drops connections, and names the failure', async () => {
    // A port that accepts then closes at once: the database "is starting"; the api waits, then gives up.
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const r = await runProofseal(['start', '--role', 'api'], env(port, { DATABASE_WAIT_SECONDS: '2' }));
      assert.equal(r.code, 1);
      assert.match(stderrLines(r.stderr).at(-1)!, /^proofseal: cannot reach the database at 127\.0\.0\.1:\d+ \(/);
    } finally {
      server.close();
    }
  });

  it('--role api uses a database that comes up while it waits', { skip: postgres!.skip }, async () => {
    const schema = newSchemaName();
    const target = new URL(schemaUrl(schema));
    const upstreamPort = Number(target.port || 5432);
    const upstreamHost = target.hostname;
    // The "database" is starting: its first two connections are dropped, then it relays to the test PostgreSQL.
    let seen = 0;
    const relay = net.createServer((client) => {
      if (++seen <= 2) return void client.destroy();
      const upstream = net.connect(upstreamPort, upstreamHost);
      client.pipe(upstream).pipe(client);
      const drop = () => (client.destroy(), upstream.destroy());
      client.on('error', drop);
      upstream.on('error', drop);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    target.host = `127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
    const settings = { ...env(0, { DATABASE_WAIT_SECONDS: '120', LOG_LEVEL: 'info' }), DATABASE_URL: target.href };
    try {
      const api = await startProofseal(
        ['start', '--role', 'api'],
        { ...settings, PORT: String(await freePort()) },
        /proofseal started/,
        120_000,
      );
      assert.equal(api.output().match(/database not reachable yet, retrying/g)?.length, 2, api.output());
      assert.equal(await api.stop(), 0);
    } finally {
      relay.close();
      await dropSchema(schema);
    }
  });
});
