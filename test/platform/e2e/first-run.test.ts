// tier: slow (spawned processes: npm, the service on a pseudo-terminal)
/**
 * The README's first run as a newcomer makes it, on a terminal: `npm start` in the checkout (on a pseudo-terminal
 * made by util-linux `script`, so the service logs as it does for a person), then the README's `npm install -g .`
 * and its seal and verify lines run as `proofseal …` from a folder outside the checkout, and `outbox mail`; then
 * Ctrl-C. What the terminal shows is checked: the box printed last with the credentials' file, `/verify`,
 * `/v1/docs` and `outbox mail`; one line per HTTP request; no wallet-import talk on the embedded node.
 *
 * The checkout is a second one of this checkout's files (each entry a link to this one's, `bin/` copied, no `data`):
 * the command's own path is then in it, so a command run elsewhere finds that checkout's `data` folder — the
 * test's own, never the developer's — and `npm install -g` goes into a prefix of the test's.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../support/processes.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = '/usr/bin/script';
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** util-linux `script` makes the pseudo-terminal; CI has it (.ci/run's Debian), elsewhere its absence skips. */
function scriptSkip(): false | string {
  if (existsSync(SCRIPT)) return false;
  if (process.env.CI === 'true') throw new Error(`${SCRIPT} is missing; CI requires it (util-linux)`);
  return `${SCRIPT} is missing (apt-get install bsdutils)`;
}

/** The commands of the README's first `sh` block that holds `marker`, comments and `npx ` taken off. */
function readmeCommands(marker: string): string[] {
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(marker));
  assert.ok(block, `README.md has no sh block with ${marker}`);
  return block
    .split('\n')
    .map((line) => line.split(/\s+#/)[0]!.trim().replace(/^npx /, ''))
    .filter((line) => line !== '');
}

/** A second checkout of this one's files at `into` (see the header). */
function secondCheckout(into: string): void {
  for (const name of readdirSync(ROOT)) {
    if (['.git', 'bin', 'data'].includes(name)) continue;
    symlinkSync(path.join(ROOT, name), path.join(into, name));
  }
  mkdirSync(path.join(into, 'bin'));
  copyFileSync(path.join(ROOT, 'bin', 'proofseal.js'), path.join(into, 'bin', 'proofseal.js'));
  chmodSync(path.join(into, 'bin', 'proofseal.js'), 0o755);
}

/** A newcomer's shell: none of the developer's proofseal settings, npm's or the test runner's; `prefix`'s bin first. */
function shellEnv(prefix: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([k]) =>
      !/^(PROOFSEAL_|npm_|NODE_TEST|NODE_OPTIONS$)/.test(k) &&
      !['DATA_DIR', 'DATABASE_URL', 'BITCOIN_RPC_URL', 'SECRET_KEY', 'SMS_URL', 'PORT', 'LOG_LEVEL'].includes(k),
  );
  const PATH = [path.join(prefix, 'bin'), path.dirname(process.execPath), process.env.PATH].join(path.delimiter);
  return { ...Object.fromEntries(kept), PATH, ...extra };
}

/** What a terminal shows, as text: colours and carriage returns taken off. */
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');

/** `sh -c command` to its end (not spawnSync: the terminal's output must keep flowing meanwhile). */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number, log: () => string) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- terminal:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe(
  'the first run of the README: npm start on a terminal, the proofseal command from another folder',
  {
    skip: scriptSkip(),
  },
  () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'proofseal-first-run-'));
    const checkout = path.join(scratch, 'proofseal');
    const prefix = path.join(scratch, 'npm-global');
    const elsewhere = path.join(scratch, 'documents');
    let env: NodeJS.ProcessEnv;
    let apiUrl: string;
    let terminal: ChildProcessWithoutNullStreams | undefined;
    let screen = '';
    const shown = () => plain(screen);

    before(async () => {
      // What `npm install` did in this checkout (its `prepare`): dist/ built.
      const build = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `the build failed:\n${build.stderr}`);
      mkdirSync(checkout);
      mkdirSync(elsewhere);
      secondCheckout(checkout);
      const [port, identityPort] = [await freePort(), await freePort()];
      apiUrl = `http://localhost:${port}`;
      env = shellEnv(prefix, {
        PORT: String(port),
        IDENTITY_PORT: String(identityPort),
        BATCH_INTERVAL_SECONDS: '2',
        REGTEST_BLOCK_INTERVAL_SECONDS: '1',
      });
      terminal = spawn(SCRIPT, ['-qfec', 'npm start', '/dev/null'], { cwd: checkout, env });
      terminal.stdout.on('data', (d: Buffer) => (screen += d.toString()));
      terminal.stderr.on('data', (d: Buffer) => (screen += d.toString()));
      await until('the start banner', () => /proofseal is running[\s\S]*└─+┘/.test(shown()), 300_000, shown);
    });

    /** Ctrl-C on the terminal; resolves once `script` (and the service under it) ended, or after `ms`. */
    const ctrlC = async (ms: number) => {
      if (!terminal || terminal.exitCode !== null || terminal.signalCode !== null) return;
      const exited = new Promise((r) => terminal!.once('exit', r));
      terminal.stdin.write('\x03');
      await Promise.race([exited, new Promise((r) => setTimeout(r, ms))]);
    };

    after(async () => {
      await ctrlC(30_000);
      if (terminal && terminal.exitCode === null && terminal.signalCode === null) terminal.kill('SIGKILL');
      rmSync(scratch, { recursive: true, force: true });
    });

    it('npm start prints, last, a box with the addresses, outbox mail, the credentials and the file keeping them', () => {
      const text = shown();
      const file = path.join(checkout, 'data', 'credentials.json');
      const creds = JSON.parse(readFileSync(file, 'utf8')) as { password: string; apiToken: string };
      const box = text.slice(text.lastIndexOf('┌'), text.lastIndexOf('┘') + 1);
      assert.ok(text.indexOf('proofseal started') < text.indexOf(box), 'the box comes after the start is logged');
      for (const line of [
        `API                 ${apiUrl}`,
        `API docs            ${apiUrl}/v1/docs`,
        `verify a file       ${apiUrl}/verify`,
        'npx proofseal outbox mail',
        `password            ${creds.password}`,
        `API token           ${creds.apiToken}`,
        `kept in             ${file} (readable by you only)`,
      ])
        assert.ok(box.includes(line), `the box has "${line}":\n${box}`);
      assert.equal(text.split(creds.password).length - 1, 1, 'the password is printed once');
    });

    it("installed with the README's command, proofseal seals and verifies from another folder, and reads the outbox", async () => {
      const [install, ...rest] = readmeCommands('npm install -g .');
      assert.deepEqual([install, rest], ['npm install -g .', []]);
      const installed = await sh(`${install} --prefix '${prefix}'`, checkout, env);
      assert.equal(installed.status, 0, installed.out);
      assert.ok(existsSync(path.join(prefix, 'bin', 'proofseal')), 'the proofseal command is in the prefix');

      writeFileSync(path.join(elsewhere, 'contract.pdf'), `a contract ${randomBytes(16).toString('hex')}\n`);
      const [seal, verify] = readmeCommands('proofseal seal contract.pdf');
      assert.deepEqual(
        [seal, verify],
        ['proofseal seal contract.pdf --confirmed', 'proofseal verify contract.pdf contract.pdf.receipt.json'],
      );
      const sealed = await sh(seal!, elsewhere, env);
      assert.equal(sealed.status, 0, `${sealed.out}\n--- terminal:\n${shown()}`);
      assert.ok(existsSync(path.join(elsewhere, 'contract.pdf.receipt.json')), 'the receipt is beside the file');
      const verified = await sh(verify!, elsewhere, env);
      assert.equal(verified.status, 0, verified.out);
      assert.match(verified.out, /^VERIFIED: contract\.pdf/m);

      const outbox = await sh('proofseal outbox mail', elsewhere, env);
      assert.equal(outbox.status, 0, outbox.out);
      assert.ok(!existsSync(path.join(elsewhere, 'data')), 'no data folder made where the command ran');
    });

    it('on the terminal: one line per request, no wallet-import talk; Ctrl-C stops the service', async () => {
      assert.equal((await fetch(`${apiUrl}/health`)).status, 200);
      assert.equal((await fetch(`${apiUrl}/v1/no-such-route?token=secret-value`)).status, 404);
      await until('the 404 logged', () => /GET \/v1\/no-such-route/.test(shown()), 30_000, shown);
      const text = shown();
      const afterBox = text.slice(text.lastIndexOf('┘') + 1);
      const lines = afterBox.split('\n').filter((line) => line.trim() !== '');
      for (const line of lines) assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+: \S/, 'one line per entry');
      assert.ok(
        lines.some((line) => /INFO: GET \/health 200 \d+\.\d ms$/.test(line)),
        afterBox,
      );
      assert.ok(
        lines.some((line) => /INFO: POST \/v1\/anchor 20\d \d+\.\d ms$/.test(line)),
        afterBox,
      );
      assert.ok(lines.some((line) => /GET \/v1\/no-such-route\?token=\[redacted\] 404 \d+\.\d ms$/.test(line)));
      assert.doesNotMatch(text, /secret-value|scantxoutset|wallet import/);

      await ctrlC(60_000);
      assert.notEqual(terminal!.exitCode ?? terminal!.signalCode, null, 'the service stopped on Ctrl-C');
      assert.match(shown(), /shutting down/);
      await assert.rejects(fetch(`${apiUrl}/health`), 'nothing answers once stopped');
    });
  },
);
