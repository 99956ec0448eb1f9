// tier: slow (spawned processes)
/**
 * The binary as users start it. `npx proofseal` runs the package's `bin` (bin/proofseal.js), which runs the
 * built dist/main.js (built here as `npm install` and `npm start` build it, scripts/build-if-changed.mjs);
 * the other process tests run the same shim with `main` from the sources (test/support/processes.ts). Either
 * way DATA_DIR is written owner-only and a bad setting is one line on stderr, no stack trace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { proofsealArgs } from '../../support/processes.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Settings of the developer's shell that would point the child elsewhere than its own DATA_DIR. */
const NOT_INHERITED = ['DATABASE_URL', 'BITCOIN_RPC_URL', 'SECRET_KEY', 'SMS_URL', 'PORT', 'LOG_LEVEL'];

const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !NOT_INHERITED.includes(k))),
  ...extra,
});

/** `npx proofseal <args>` from the package's folder, in a shell whose umask lets group and others read. */
function npxProofseal(args: string[], env: Record<string, string>) {
  const command = `umask 022 && exec npx --no-install proofseal ${args.join(' ')}`;
  return spawnSync('sh', ['-c', command], { cwd: ROOT, env: cleanEnv(env), encoding: 'utf8' });
}

/** Every file and folder under `dir` (itself included) with its permission bits. */
function modesUnder(dir: string): { path: string; mode: number; isDir: boolean }[] {
  const stat = statSync(dir);
  const here = { path: dir, mode: stat.mode & 0o777, isDir: stat.isDirectory() };
  if (!here.isDir) return [here];
  return [here, ...readdirSync(dir).flatMap((name) => modesUnder(path.join(dir, name)))];
}

/** stderr's lines, and whether any is a stack frame. */
function errorLines(stderr: string): { lines: string[]; stack: boolean } {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  return { lines, stack: lines.some((line) => /^\s+at /.test(line)) };
}

describe('npx proofseal (bin/proofseal.js → dist/main.js)', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'proofseal-bin-'));

  before(() => {
    const build = spawnSync(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `the build failed:\n${build.stderr}`);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('creates DATA_DIR and everything in it owner-only (0700 folders, 0600 files) under a umask of 022', () => {
    const dataDir = path.join(scratch, 'data');
    const r = npxProofseal(['migrate'], { DATA_DIR: dataDir });
    assert.equal(r.status, 0, `migrate failed:\n${r.stderr}`);
    const entries = modesUnder(dataDir);
    assert.ok(
      entries.some((e) => e.path.endsWith('secret.key')),
      'the secret key was written',
    );
    assert.ok(entries.length > 10, 'the embedded store was written');
    const open = entries.filter((e) => (e.mode & 0o077) !== 0);
    assert.deepEqual(
      open.slice(0, 5).map((e) => `${e.mode.toString(8)} ${path.relative(dataDir, e.path)}`),
      [],
      `${open.length} entries are readable by group or others`,
    );
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(path.join(dataDir, 'secret.key')).mode & 0o777, 0o600);
  });

  it('answers a bad setting with one line naming it, exit code 2, no stack trace', () => {
    const r = npxProofseal(['migrate'], { DATA_DIR: path.join(scratch, 'bad'), PORT: 'abc' });
    assert.equal(r.status, 2);
    const { lines, stack } = errorLines(r.stderr);
    assert.equal(stack, false, r.stderr);
    assert.deepEqual(lines, [`proofseal: invalid configuration: PORT must be an integer from 0 to 65535, got "abc"`]);
  });

  it('answers an unknown command with the usage and exit code 2, no stack trace', () => {
    const r = npxProofseal(['frobnicate'], { DATA_DIR: path.join(scratch, 'unknown') });
    assert.equal(r.status, 2);
    assert.equal(errorLines(r.stderr).stack, false, r.stderr);
    assert.match(r.stderr, /^proofseal: unknown command "frobnicate"\nusage: proofseal <command>/);
  });
});

describe('the tests’ way of spawning the binary (bin/proofseal.js, main from src/)', () => {
  it('goes through the same entry: a bad setting is the same one line', () => {
    const r = spawnSync('sh', ['-c', `umask 022 && exec "$0" "$@"`, process.execPath, ...proofsealArgs(['migrate'])], {
      cwd: ROOT,
      env: cleanEnv({ DATA_DIR: path.join(os.tmpdir(), 'proofseal-bin-never-made'), PORT: '70000' }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(errorLines(r.stderr).lines, [
      'proofseal: invalid configuration: PORT must be an integer from 0 to 65535, got "70000"',
    ]);
  });
});
