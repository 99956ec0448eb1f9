#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (through tsx), or the files/folders given.
// Node 20's runner does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function collect(p) {
  if (statSync(p).isFile()) return p.endsWith('.test.ts') ? [p] : [];
  return readdirSync(p)
    .sort()
    .flatMap((name) => (name === 'node_modules' ? [] : collect(path.join(p, name))));
}

// `--fast` leaves out the slow tier: the files that declare `// tier: slow` on their first line (a real
// Bitcoin node, a browser, spawned service processes, crash cycles). `npm test` runs everything.
const fast = process.argv.includes('--fast');
const args = process.argv.slice(2).filter((a) => a !== '--fast');
const targets = args.length > 0 ? args : ['test'];
const isSlow = (file) => readFileSync(file, 'utf8').startsWith('// tier: slow');
const files = targets.flatMap(collect).filter((file) => !fast || !isSlow(file));
if (files.length === 0) {
  console.error(`no test files under ${targets.join(' ')}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-tests-'));
const tap = path.join(resultsDir, 'results.tap');
const durationsFile = path.join(resultsDir, 'durations.jsonl');
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=600000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    `--test-reporter=${path.join(import.meta.dirname, 'durations-reporter.mjs')}`,
    `--test-reporter-destination=${durationsFile}`,
    ...files,
  ],
  { stdio: 'inherit' },
);
// The slow tier is declared by hand but enforced from what was measured: in the fast run, a file whose tests
// took longer than SLOW_FILE_SECONDS and that does not say `// tier: slow` fails the run, named with its time.
const SLOW_FILE_SECONDS = Number(process.env.SLOW_FILE_SECONDS ?? 10);
const perFile = new Map();
for (const line of readFileSync(durationsFile, 'utf8').split('\n').filter(Boolean)) {
  const { file, ms } = JSON.parse(line);
  perFile.set(file, (perFile.get(file) ?? 0) + ms);
}
const undeclared = [...perFile]
  .filter(([file, ms]) => ms > SLOW_FILE_SECONDS * 1000 && !isSlow(file))
  .sort((a, b) => b[1] - a[1]);
for (const [file, ms] of undeclared)
  console.log(
    `${fast ? 'slow file not in the slow tier' : 'note: slow file not in the slow tier'}: ` +
      `${path.relative(process.cwd(), file)} took ${(ms / 1000).toFixed(1)} s (over ${SLOW_FILE_SECONDS} s): ` +
      `mark it \`// tier: slow\` on its first line, or make it faster`,
  );
const summary = readFileSync(tap, 'utf8');
// A file whose process ended badly (killed, or exited non-zero outside any test) is reported by node only as
// 'test failed', the tests it was running not at all: its exit code or signal, from the TAP, says which it was.
for (const m of summary.matchAll(/^not ok \d+ - (.+)\n {2}---\n((?: {2}.*\n)*?) {2}\.\.\.$/gm)) {
  const field = (name) => (m[2].match(new RegExp(`^ {2}${name}: (.*)$`, 'm')) ?? [])[1];
  const signal = field('signal');
  const exitCode = field('exitCode');
  if ((signal === undefined || signal === '~') && (exitCode === undefined || exitCode === '~')) continue;
  console.log(
    `test file ${m[1]} ended ${signal && signal !== '~' ? `on signal ${signal.replace(/'/g, '')}` : `with exit code ${exitCode}`}` +
      ' (its own output, printed above, says what it was doing)',
  );
}
// One plain closing line with the counts, from the TAP summary.
const count = (name) => Number((summary.match(new RegExp(`^# ${name} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
console.log(
  `${count('pass')} passed, ${count('fail') + count('cancelled')} failed, ${count('skipped') + count('todo')} skipped`,
);
process.exit(fast && undeclared.length > 0 && r.status === 0 ? 1 : (r.status ?? 1));
