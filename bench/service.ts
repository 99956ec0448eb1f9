/** The service as the benchmarks run it: `proofseal start --role …` through bin/proofseal.js, from source. */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { proofsealArgs } from '../test/support/processes.js';

/** Environment of a benchmark's service on `port` of 127.0.0.1: warnings only, no rate limit in the way. */
export function benchEnv(port: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
    RATE_LIMIT_AUTH_PER_MINUTE: '10000000',
    RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE: '10000000',
  };
}

/**
 * Spawns `proofseal start --role <role>` with `env` over this process's environment. Its output goes
 * where `stdio` says (at LOG_LEVEL=info an API writes a line per request: keep the level at warn).
 */
export function spawnRole(role: 'api' | 'worker', env: Record<string, string>, stdio: StdioOptions): ChildProcess {
  return spawn(process.execPath, proofsealArgs(['start', '--role', role]), {
    env: { ...process.env, ...env },
    stdio,
  });
}

/**
 * Resolves once `child` answers `GET /health` on `port`.
 * @throws Error when it exits first, or does not answer within `timeoutMs`
 */
export async function untilAnswers(child: ChildProcess, port: number, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > until) throw new Error(`the server did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sends `signal` to `child` (unless it has exited) and resolves once it has exited. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/**
 * Spawns `proofseal start --role <role>` at LOG_LEVEL=info with its output appended to the file `fd`;
 * `started` resolves once it logs "proofseal started" (false if it exits first).
 */
export function spawnLogged(
  role: 'api' | 'worker',
  env: Record<string, string>,
  fd: number,
): { child: ChildProcess; started: Promise<boolean> } {
  const child = spawnRole(role, { ...env, LOG_LEVEL: 'info' }, ['ignore', 'pipe', 'pipe']);
  const started = new Promise<boolean>((resolve) => {
    let tail = '';
    const onData = (d: Buffer) => {
      writeSync(fd, d);
      tail = (tail + d.toString()).slice(-200);
      if (tail.includes('proofseal started')) resolve(true);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => writeSync(fd, d));
    child.once('exit', () => resolve(false));
  });
  return { child, started };
}
