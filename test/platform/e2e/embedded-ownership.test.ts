// tier: slow (spawned processes)
/**
 * The embedded store belongs to one process (issues 7 and 12): with the default run started as a child
 * process, a second `proofseal start` on the same DATA_DIR fails at once with one line; operator commands
 * from other processes run inside the service through DATA_DIR/operator.sock, take effect at once and
 * survive a restart; a lock left by a dead process is taken over; DATA_DIR is owner-only.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, runProofseal, startProofseal, type Proc } from '../../support/processes.js';

/** Every path under `dir` whose mode lets group or others in (sockets and symbolic links included). */
function groupOrWorldAccessible(dir: string): string[] {
  const found: string[] = [];
  if ((statSync(dir).mode & 0o077) !== 0) found.push(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isSymbolicLink() && (statSync(full).mode & 0o077) !== 0) found.push(full);
  }
  return found;
}

/** No stack trace: exactly one non-empty line on stderr. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line expected, got:\n${stderr}`);
  return lines[0]!;
}

describe('the embedded store belongs to the running service', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-own-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '', BITCOIN_RPC_URL: '', SECRET_KEY: '' };
  let service: Proc;
  let api = '';
  const basic = (email: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
  });

  const startService = async () => {
    const [port, identityPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    const procEnv = { ...env, PORT: String(port), IDENTITY_PORT: String(identityPort) };
    return startProofseal(['start'], { ...procEnv, REGTEST_BLOCK_INTERVAL_SECONDS: '0' }, /proofseal started/, 120_000);
  };

  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // No time bound here (the house keeps timings out of tests): a second process that waited for the
  // store instead of refusing would never exit, and the test runner's timeout reports that.
  it('a second process opening the held store is refused, with one line naming the holder', async () => {
    const second = await runProofseal(['start'], { ...env, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    assert.equal(second.code, 1);
    const line = oneLine(second.stderr);
    assert.match(line, new RegExp(`in use by process ${service.child.pid}\\b`));
  });

  it('account create from another process runs in the service: the account is accepted at once', async () => {
    const created = await runProofseal(
      ['account', 'create', '--email', 'second@example.com', '--password', 'second password 1'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^account [0-9a-f-]{36} created for second@example\.com$/m);
    const res = await fetch(`${api}/v1/user`, { headers: basic('second@example.com', 'second password 1') });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { email: string }).email, 'second@example.com');
  });

  it("account update without --email names the default run's own account, through the socket", async () => {
    const named = await runProofseal(['account', 'update', '--first-name', 'Ada', '--last-name', 'Lovelace'], env);
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, /^account local@proofseal\.localhost is now named "Ada Lovelace"$/m);
    const creds = JSON.parse(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as { apiToken: string };
    const res = await fetch(`${api}/v1/user`, { headers: { authorization: `Bearer ${creds.apiToken}` } });
    assert.deepEqual(
      (({ firstName, lastName }) => ({ firstName, lastName }))((await res.json()) as Record<string, unknown>),
      { firstName: 'Ada', lastName: 'Lovelace' },
    );
  });

  it('errors keep their exit codes through the socket: a duplicate is a domain refusal (3), a bad flag a usage error (2)', async () => {
    const dup = await runProofseal(
      ['account', 'create', '--email', 'SECOND@example.com', '--password', 'x'.repeat(12)],
      env,
    );
    assert.equal(dup.code, 3);
    assert.match(oneLine(dup.stderr), /exists/);
    const bad = await runProofseal(['token', 'create', '--nope'], env);
    assert.equal(bad.code, 2);
  });

  it('token create and revoke, identity token create and wallet go through the running service too', async () => {
    const token = await runProofseal(['token', 'create', '--email', 'second@example.com', '--json'], env);
    assert.equal(token.code, 0, token.stderr);
    const { id, token: secret } = JSON.parse(token.stdout) as { id: string; token: string };
    const bearer = { authorization: `Bearer ${secret}` };
    assert.equal((await fetch(`${api}/v1/tokens`, { headers: bearer })).status, 200);
    assert.equal((await runProofseal(['token', 'revoke', '--id', id], env)).code, 0);
    assert.equal((await fetch(`${api}/v1/tokens`, { headers: bearer })).status, 401);
    const identity = await runProofseal(['identity', 'token', 'create', '--name', 'ops', '--json'], env);
    assert.equal(identity.code, 0, identity.stderr);
    const wallet = await runProofseal(['wallet', '--json'], env);
    assert.equal(wallet.code, 0, wallet.stderr);
    const info = JSON.parse(wallet.stdout) as { network: string; balanceSat: number; node: string };
    assert.equal(info.network, 'regtest');
    assert.ok(info.balanceSat > 0, 'the worker funded its wallet');
    assert.match(info.node, /inside the running service/);
    // The embedded node's wallet is funded by its own blocks: the `wallet import` fallback is not said at info there.
    assert.doesNotMatch(service.output(), /scantxoutset|wallet import/);
  });

  it('DATA_DIR and everything in it is owner-only while the service runs', () => {
    assert.deepEqual(groupOrWorldAccessible(dataDir), []);
  });

  it('after a restart the account made through the service is still there', async () => {
    assert.equal(await service.stop(), 0, service.output().slice(-2000));
    service = await startService();
    const res = await fetch(`${api}/v1/user`, { headers: basic('second@example.com', 'second password 1') });
    assert.equal(res.status, 200);
    assert.deepEqual(groupOrWorldAccessible(dataDir), []);
  });
});

describe('a lock left by a dead process', () => {
  it('is taken over by the next opener, which releases it when done', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-stale-'));
    try {
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
      const pid = Number(dead.stdout.toString());
      writeFileSync(path.join(dataDir, 'store.lock'), JSON.stringify({ pid, since: 'then', command: 'start' }));
      const env = { DATA_DIR: dataDir, DATABASE_URL: '', SECRET_KEY: '' };
      const migrated = await runProofseal(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stdout, /migrations applied/);
      assert.ok(!readdirSync(dataDir).includes('store.lock'), 'the lock is released at exit');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
