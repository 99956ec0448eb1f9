/** Spawning the real binary for multi-process tests: bin/proofseal.js, its `main` run from source. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The package's `bin`, what `npx proofseal` runs. */
const PROOFSEAL_BIN = path.join(ROOT, 'bin', 'proofseal.js');

/**
 * The node arguments that run `proofseal <args>` as users do, through bin/proofseal.js, with the shim's
 * dist/main.js served from src/main.ts (./bin-from-source.ts): no build needed, the checkout's sources run.
 */
export function proofsealArgs(args: readonly string[]): string[] {
  return [
    '--import',
    'tsx',
    '--import',
    path.join(ROOT, 'test', 'support', 'bin-from-source.ts'),
    PROOFSEAL_BIN,
    ...args,
  ];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Proc {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/** Starts `proofseal <args>` with the given environment; resolves when `readyLine` appears in its output. */
export async function startProofseal(
  args: string[],
  env: Record<string, string>,
  readyLine: RegExp,
  timeoutMs = 60_000,
): Promise<Proc> {
  const child = spawn(process.execPath, proofsealArgs(args), {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const onData = (b: Buffer) => {
    out += b.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      if (readyLine.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `proofseal <args>` to completion; resolves with exit code and output. */
export function runProofseal(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, proofsealArgs(args), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Resolves when the process's output (all of it so far, and what follows) matches `pattern`.
 * @throws Error when it does not within `timeoutMs`, or the process exits first
 */
export function waitForOutput(proc: Proc, pattern: RegExp, what: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const streams = [proc.child.stdout!, proc.child.stderr!];
    const done = (err?: Error) => {
      clearTimeout(timer);
      streams.forEach((s) => s.off('data', check));
      proc.child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    const check = () => {
      if (pattern.test(proc.output())) done();
    };
    const onExit = () => done(new Error(`exited before ${what}:\n${proc.output().slice(-2000)}`));
    const timer = setTimeout(() => done(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
    streams.forEach((s) => s.on('data', check));
    proc.child.on('exit', onExit);
    check();
  });
}
