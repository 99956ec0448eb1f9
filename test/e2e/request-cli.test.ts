/**
 * `proofseal request` as a user runs it against the default run (`proofseal start`: embedded store,
 * regtest node, local credentials in DATA_DIR/credentials.json), each command a child process.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('proofseal request against the default run', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-request-e2e-'));
  let server: ChildProcess;
  let serverOut = '';
  let env: NodeJS.ProcessEnv;
  let id: string;

  before(async () => {
    const [port, identityPort] = [await freePort(), await freePort()];
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) =>
          !k.startsWith('PROOFSEAL_') && !['DATABASE_URL', 'BITCOIN_RPC_URL', 'SECRET_KEY', 'SMS_URL'].includes(k),
      ),
    );
    env = {
      ...inherited,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      IDENTITY_PORT: String(identityPort),
    };
    server = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (d: Buffer) => (serverOut += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (serverOut += d.toString()));
    const until = Date.now() + 240_000;
    for (;;) {
      const answers = (p: number) =>
        fetch(`http://localhost:${p}/health`).then(
          (r) => r.ok,
          () => false,
        );
      if ((await answers(port)) && (await answers(identityPort))) break;
      if (Date.now() > until || server.exitCode !== null)
        throw new Error(`the default run did not start (exit ${server.exitCode})\n${serverOut}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  after(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('create --draft (a signer with an SMS code), show, list, transition PENDING, a refused transition, proofs of an unsigned request', async () => {
    const doc = path.join(dataDir, 'contract.txt');
    writeFileSync(doc, `a contract ${randomBytes(16).toString('hex')}\n`);
    const signers = [
      '--signer',
      'Jane Doe <jane@example.com>',
      '--otp',
      '+33612345678',
      '--signer',
      'Bob <bob@example.com>',
    ];
    const created = await cli(['request', 'create', doc, ...signers, '--draft', '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${serverOut}`);
    const request = JSON.parse(created.stdout);
    id = request.id;
    assert.equal(request.state, 'DRAFT');
    assert.equal(request.authorizedSignees.length, 2);
    assert.equal(request.authorizedSignees[0].requiresOTP, true);

    const shown = await cli(['request', 'show', id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /state {5}DRAFT/);
    assert.match(shown.stdout, /signer {4}Jane Doe <jane@example\.com> \(SMS code to \+33612345678\): not signed yet/);

    const listed = await cli(['request', 'list', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).content.map((r: { id: string }) => r.id),
      [id],
    );

    const moved = await cli(['request', 'transition', id, 'PENDING'], env);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, new RegExp(`^request ${id} is now (PENDING|IN_PROGRESS)`));

    const refused = await cli(['request', 'transition', id, 'DRAFT'], env);
    assert.equal(refused.code, 3, 'refused by a domain rule');
    assert.match(refused.stderr, /proofseal API: /);

    const bundleFile = path.join(dataDir, 'bundle.json');
    const proofs = await cli(['request', 'proofs', id, '--out', bundleFile, '--json'], env);
    assert.equal(proofs.code, 1, `nobody signed yet: the bundle is partial\n${proofs.stderr}`);
    const verdict = JSON.parse(proofs.stdout);
    assert.equal(verdict.verdict, 'NOT_VERIFIED');
    assert.equal(verdict.complete, false);
    assert.equal(JSON.parse(readFileSync(bundleFile, 'utf8')).complete, false);
  });

  it("a newcomer's whole request: create, read the invitation in the outbox, sign from its link, COMPLETED", async () => {
    const doc = path.join(dataDir, 'lease.txt');
    writeFileSync(doc, `a lease ${randomBytes(16).toString('hex')}\n`);
    const created = await cli(['request', 'create', doc, '--signer', 'Ann Lee <ann@example.com>', '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${serverOut}`);
    const requestId = JSON.parse(created.stdout).id as string;

    const listed = await cli(['outbox', 'mail', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    type Row = { id: string; requestId: string; type: string; to: { address: string } };
    const invitation = (JSON.parse(listed.stdout) as Row[]).find(
      (m) => m.requestId === requestId && m.type === 'signatureRequestSigneeEmail',
    );
    assert.equal(invitation?.to.address, 'ann@example.com');
    const shown = await cli(['outbox', 'mail', invitation!.id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Subject: .* invites you to sign "lease\.txt"/);
    const link = /(http:\/\/localhost:\d+\/sign\?signatureRequestURL=\S+)/.exec(shown.stdout)?.[1];
    assert.ok(link, `the signing link in the mail:\n${shown.stdout}`);

    const signed = await cli(['request', 'delegate', link], env);
    assert.equal(signed.code, 0, `${signed.stderr}\n--- server:\n${serverOut}`);
    assert.match(signed.stdout, new RegExp(`^signed: request ${requestId}, signature anchor [0-9a-f-]{36}`));
    const signeeId = new URL(new URL(link).searchParams.get('signatureRequestURL')!).searchParams.get('signeeId')!;
    assert.ok(!signed.stdout.includes(signeeId), 'the secret is not printed');
    const again = await cli(['request', 'delegate', link], env);
    assert.equal(again.code, 3, 'signing twice is refused');
    assert.match(again.stderr, /ALREADY_SIGNED|already signed/);

    const after = JSON.parse((await cli(['request', 'show', requestId, '--json'], env)).stdout);
    assert.equal(after.state, 'COMPLETED');
    assert.ok(after.authorizedSignees[0].signedOn > 0);
  });
});
