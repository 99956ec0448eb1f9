/**
 * Go's transparency-log code (golang.org/x/mod/sumdb/tlog and sumdb/note, Debian's golang-go and
 * golang-golang-x-mod-dev) as an independent checker: test/transparency-log/go-checker/main.go, built once per run in
 * GOPATH mode into a temporary folder and spoken to over stdin/stdout, one JSON line each way.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface GoAnswer {
  readonly ok: boolean;
  readonly error?: string;
  readonly size?: number;
  readonly root?: string;
  readonly paths?: string[];
}

export interface GoChecker {
  ask(request: Record<string, unknown>): Promise<GoAnswer>;
  close(): Promise<void>;
}

const SOURCE = path.resolve(import.meta.dirname, '../transparency-log/go-checker/main.go');

/** Builds and starts the checker. */
export function startGoChecker(): GoChecker {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'go-tlog-'));
  const bin = path.join(dir, 'go-checker');
  execFileSync('go', ['build', '-o', bin, SOURCE], {
    env: {
      ...process.env,
      GOPATH: '/usr/share/gocode',
      GO111MODULE: 'off',
      GOFLAGS: '',
      GOCACHE: path.join(dir, 'cache'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(a: GoAnswer) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line) as GoAnswer));
  return {
    ask(request) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(JSON.stringify(request) + '\n');
      });
    },
    close() {
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      });
    },
  };
}
