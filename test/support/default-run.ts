/**
 * The default run (`proofseal start`: embedded store, regtest node, identity server beside the API) as a
 * user starts it, in a DATA_DIR of its own, and `proofseal <command>` run against it as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, proofsealArgs } from './processes.js';

/** Settings of the developer's shell that would point a child elsewhere than the test's default run. */
const NOT_INHERITED = ['DATABASE_URL', 'BITCOIN_RPC_URL', 'SECRET_KEY', 'SMS_URL'];

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface DefaultRun {
  readonly dataDir: string;
  /** The environment of every child: the test's DATA_DIR and ports, nothing of the developer's settings. */
  readonly env: NodeJS.ProcessEnv;
  readonly apiUrl: string;
  readonly identityUrl: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /**
   * Stops the server (SIGTERM, SIGKILL after 15 s; or SIGKILL at once, a crash) and starts it again on the
   * same DATA_DIR and ports.
   */
  restart(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Stops the server (SIGTERM, SIGKILL after 15 s) and removes DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts the default run with `extra` settings; resolves once the API and the identity server answer
 * `/health`. @throws Error with the server's output when it exits first or does not answer in `timeoutMs`
 */
export async function startDefaultRun(extra: Record<string, string> = {}, timeoutMs = 240_000): Promise<DefaultRun> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-e2e-'));
  const [port, identityPort] = [await freePort(), await freePort()];
  const ports = { PORT: String(port), IDENTITY_PORT: String(identityPort) };
  const env = { ...inheritedEnv(), LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...ports, ...extra };
  let out = '';
  const spawnServer = () => {
    const child = spawn(process.execPath, proofsealArgs(['start']), {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return child;
  };
  let server = spawnServer();
  const run: DefaultRun = {
    dataDir,
    env,
    apiUrl: `http://localhost:${port}`,
    identityUrl: `http://localhost:${identityPort}`,
    output: () => out,
    restart: async (signal = 'SIGTERM') => {
      await stopServer(server, signal);
      server = spawnServer();
      await untilAnswering(run, server, timeoutMs);
    },
    stop: async () => {
      await stopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await untilAnswering(run, server, timeoutMs).catch(async (err: unknown) => {
    await run.stop();
    throw err;
  });
  return run;
}

/** Runs `proofseal <args>` to its end. @throws Error when it runs longer than `timeoutMs` (it is killed) */
export function cli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, proofsealArgs(args), {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
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

function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('PROOFSEAL_') && !NOT_INHERITED.includes(k)),
  );
}

async function untilAnswering(run: DefaultRun, server: ChildProcess, timeoutMs: number): Promise<void> {
  const answers = (url: string) =>
    fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
  const until = Date.now() + timeoutMs;
  while (!((await answers(run.apiUrl)) && (await answers(run.identityUrl)))) {
    if (Date.now() > until || server.exitCode !== null)
      throw new Error(`the default run did not start (exit ${server.exitCode})\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopServer(server: ChildProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}
