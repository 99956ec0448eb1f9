/**
 * The slow tier is enforced by the runner from measured durations (issue 34, item 6): in `--fast`, a test file
 * that took longer than SLOW_FILE_SECONDS and does not declare `// tier: slow` fails the run, named with its
 * time; a declared one is left out of the fast run; the full run only notes it. Run on planted files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const runner = path.resolve(import.meta.dirname, '../../../scripts/run-tests.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-tier-'));
const SLEEPS = "import { it } from 'node:test';\nit('sleeps', () => new Promise((r) => setTimeout(r, 1500)));\n";
const QUICK = "import { it } from 'node:test';\nit('is quick', () => {});\n";
const undeclared = path.join(dir, 'undeclared.test.ts');
const declared = path.join(dir, 'declared.test.ts');
const quick = path.join(dir, 'quick.test.ts');
writeFileSync(undeclared, SLEEPS);
writeFileSync(declared, `// tier: slow (planted)\n${SLEEPS}`);
writeFileSync(quick, QUICK);

const run = (...args: string[]) => {
  // Not as a child of this test run: node:test would report the nested run to it instead of printing it.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, [runner, ...args], {
    encoding: 'utf8',
    cwd: path.dirname(path.dirname(runner)),
    env: { ...env, SLOW_FILE_SECONDS: '1' },
  });
  return { code: r.status, out: r.stdout };
};

describe('the test runner holds the fast tier to its bound', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--fast fails on a slow file that does not declare the slow tier, and names it', () => {
    const r = run('--fast', undeclared, quick);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /slow file not in the slow tier: .*undeclared\.test\.ts took \d+\.\d s \(over 1 s\)/);
    assert.match(r.out, /2 passed, 0 failed, 0 skipped\n$/, 'the counts stay the last line');
  });

  it('--fast leaves a declared slow file out and passes', () => {
    const r = run('--fast', declared, quick);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /1 passed, 0 failed, 0 skipped\n$/);
  });

  it('the full run only notes an undeclared slow file', () => {
    const r = run(undeclared, declared);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /note: slow file not in the slow tier: .*undeclared\.test\.ts/);
    assert.doesNotMatch(r.out, /\/declared\.test\.ts took/, 'a declared slow file is not noted');
  });
});
