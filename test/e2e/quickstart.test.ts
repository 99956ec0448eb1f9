/**
 * The quickstart as a user runs it: start the default run (`proofseal start`, embedded store and regtest
 * node, identity server beside the API), then `proofseal seal` a file and `proofseal verify` it, as child
 * processes that find the local credentials in DATA_DIR/credentials.json.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const SEAL_TIMEOUT_S = 120;

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

/** The environment of every child: no PROOFSEAL_* of the developer's shell, the test's DATA_DIR and ports. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('PROOFSEAL_') && k !== 'DATABASE_URL' && k !== 'BITCOIN_RPC_URL' && k !== 'SECRET_KEY',
    ),
  );
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`proofseal ${args.join(' ')} timed out\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  logs: () => string,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not after ${timeoutMs} ms\n${logs()}`);
}

const answers = async (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

describe('quickstart: the default run, proofseal seal, proofseal verify', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-e2e-'));
  let server: ChildProcess;
  let serverOut = '';
  let env: NodeJS.ProcessEnv;
  let apiUrl: string;
  let identityUrl: string;

  before(async () => {
    const [port, identityPort] = [await freePort(), await freePort()];
    apiUrl = `http://localhost:${port}`;
    identityUrl = `http://localhost:${identityPort}`;
    env = childEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      IDENTITY_PORT: String(identityPort),
      BATCH_INTERVAL_SECONDS: '2',
      REGTEST_BLOCK_INTERVAL_SECONDS: '2',
    });
    server = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (d: Buffer) => {
      serverOut += d.toString();
    });
    server.stderr!.on('data', (d: Buffer) => {
      serverOut += d.toString();
    });
    await waitFor(
      'the default run answers',
      async () => (await answers(`${apiUrl}/health`)) && answers(`${identityUrl}/health`),
      90_000,
      () => serverOut,
    );
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

  it('first start: credentials printed once and kept in DATA_DIR/credentials.json, readable by the owner only', () => {
    const file = path.join(dataDir, 'credentials.json');
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const creds = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(creds.apiUrl, apiUrl);
    assert.equal(creds.identityUrl, identityUrl);
    assert.match(creds.identityPubKey, /^1/);
    assert.ok(serverOut.includes(creds.identityToken), 'the identity token is printed');
    assert.equal(serverOut.split(creds.password).length - 1, 1, 'the password is printed exactly once');
  });

  it('a client command names the way to start the service when it is not running', async () => {
    const r = await cli(['find', __filenameOf(dataDir), '--api-url', 'http://127.0.0.1:9'], env, 30_000);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /cannot be reached.*npx proofseal start/);
  });

  it('seals a file (WAIT → SENT), saves the receipt next to it, and verifies it (exit 0); a changed file does not verify (exit 1)', async () => {
    const doc = path.join(dataDir, 'contract.txt');
    writeFileSync(doc, `a contract ${randomBytes(16).toString('hex')}\n`);
    const sealed = await cli(['seal', doc, '--identity', 'ALL', '--json', '--timeout', String(SEAL_TIMEOUT_S)], env);
    assert.equal(sealed.code, 0, `seal failed:\n${sealed.stderr}\n--- server:\n${serverOut}`);
    const result = JSON.parse(sealed.stdout);
    assert.ok(['SENT', 'CONFIRMED'].includes(result.status));
    assert.equal(result.receiptFile, `${doc}.receipt.json`);
    const receipt = JSON.parse(readFileSync(result.receiptFile, 'utf8'));
    assert.equal(receipt.type, 'ChainpointSHA256v2');
    assert.equal(receipt.signature.signedIdentity, 'CN=proofseal local seal');
    assert.match(sealed.stderr, /anchor WAIT/);

    let verified: CliResult | undefined;
    await waitFor(
      'verify says VERIFIED (the transaction confirms)',
      async () => {
        verified = await cli(['verify', doc, result.receiptFile], env, 60_000);
        return verified.code === 0;
      },
      90_000,
      () => `${verified?.stdout}\n${verified?.stderr}`,
    );
    assert.match(verified!.stdout, /^VERIFIED: /m);
    assert.match(verified!.stdout, /✓ the signature by 1\w+ \(CN=proofseal local seal\) holds/);
    assert.match(verified!.stdout, /✓ the identity server confirms the identity of the key/);

    const changed = path.join(dataDir, 'contract-changed.txt');
    writeFileSync(changed, `${readFileSync(doc, 'utf8')}!`);
    const refused = await cli(['verify', changed, result.receiptFile], env, 60_000);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^NOT VERIFIED: the file's SHA-256/m);

    const found = await cli(['find', doc, '--json'], env, 30_000);
    assert.equal(found.code, 0);
    assert.deepEqual(JSON.parse(found.stdout).anchorIds, [result.anchorId]);
  });
});

/** Any existing file will do for `find` against a closed port. */
function __filenameOf(dir: string): string {
  const f = path.join(dir, 'any.txt');
  writeFileSync(f, 'any');
  return f;
}
