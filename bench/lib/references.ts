/**
 * The references every benchmark prints beside its own figures, measured in the same run (the machines
 * are shared and noisy): libsecp256k1 public-key recoveries per second on one core, and a bare node:http
 * server, in this process or in a child process under the same load generator as the service.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import secp from 'secp256k1/bindings.js';
import { describeLoad, runLoad, runOpenLoad, type LoadResult, type OpenLoadOptions } from './http-load.js';
import { cpuSeconds } from './service-process.js';

interface RecoverySample {
  readonly hash: Uint8Array;
  readonly signature: Uint8Array;
  readonly recid: number;
}

type Sign = (hash: Uint8Array, key: Uint8Array) => { signature: Uint8Array; recid: number };
type Recover = (signature: Uint8Array, recid: number, hash: Uint8Array) => unknown;

/** 512 distinct signatures, recovered over and over for about `seconds`: per wall second and per CPU second. */
function timeRecoveries(sign: Sign, recover: Recover, seconds: number): { wall: number; perCpuSecond: number } {
  const samples: RecoverySample[] = Array.from({ length: 512 }, () => {
    const hash = randomBytes(32);
    return { hash, ...sign(hash, randomBytes(32)) };
  });
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    for (const s of samples) recover(s.signature, s.recid, s.hash);
    done += samples.length;
  }
  const wall = done / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  return { wall, perCpuSecond: done / ((cpu.user + cpu.system) / 1e6) };
}

/**
 * libsecp256k1 recoveries on this thread (one core) for about `seconds`: per second of wall time, and
 * per CPU second (what one core does when it is not shared, as on a loaded machine it is).
 */
export function secpRecoveriesPerSecond(seconds = 2): { wall: number; perCpuSecond: number } {
  return timeRecoveries(
    (hash, key) => secp.ecdsaSign(hash, key),
    (signature, recid, hash) => secp.ecdsaRecover(signature, recid, hash, true),
    seconds,
  );
}

/**
 * Recoveries per second on this core through the service's own secp256k1 backend (libsecp256k1, or
 * @noble/curves when the native module does not load: `backend` says which).
 */
export async function recoveriesPerSecond(): Promise<{ perSecond: number; perCpuSecond: number; backend: string }> {
  const { secp: backend, activeSecpBackend } = await import('../../src/core/bitcoin/secp-backend.js');
  const { useNativeSecpIfAvailable } = await import('../../src/adapters/crypto/native-secp.js');
  useNativeSecpIfAvailable();
  const lib = backend();
  const rate = timeRecoveries(
    lib.sign,
    (signature, recid, hash) => lib.recover(signature, recid, hash, 'compressed'),
    2,
  );
  return { perSecond: rate.wall, perCpuSecond: rate.perCpuSecond, backend: activeSecpBackend() };
}

/** Keep-alive POSTs of a small JSON body to `port`, `concurrency` at a time, until `ms` have passed: how many. */
async function postFor(port: number, concurrency: number, ms: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', agent, path: '/' }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{"ping":1}');
    });
  let n = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await post();
        n += 1;
      }
    }),
  );
  agent.destroy();
  return n;
}

/**
 * A bare node:http server in this process answering small JSON POSTs to `concurrency` keep-alive clients
 * for `ms` milliseconds: requests per second.
 */
export async function bareHttpPerSecond(concurrency = 8, ms = 2000): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const t0 = performance.now();
  const n = await postFor(port, concurrency, ms);
  const perSecond = n / ((performance.now() - t0) / 1000);
  server.close();
  return perSecond;
}

/** Forks the server module `path`, waits for its `{ port }`, runs `use` against it (and its pid), then stops it. */
async function withChildServer<T>(
  path: string,
  execArgv: string[],
  use: (port: number, pid: number) => Promise<T>,
): Promise<T> {
  const child = fork(path, [], { execArgv });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  try {
    return await use(port, child.pid!);
  } finally {
    child.removeAllListeners('exit');
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

/** Runs `use` against a bare node:http server answering 404 in a child process (bench/bare-server.mjs). */
export function bareServer<T>(use: (port: number) => Promise<T>): Promise<T> {
  return withChildServer(new URL('../bare-server.mjs', import.meta.url).pathname, [], use);
}

/**
 * The bare server (bench/lib/bare-server.ts) in a child process, driven with `request(i)` like the service;
 * with the CPU seconds (user + system) it used for the measured requests: the floor of a request's CPU in node:http.
 */
export function bareServerLoad(opts: {
  connections: number;
  total: number;
  request: (i: number) => Buffer;
}): Promise<LoadResult & { serverCpuSeconds: number }> {
  const path = new URL('./bare-server.ts', import.meta.url).pathname;
  return withChildServer(path, ['--import', 'tsx'], async (port, pid) => {
    await runLoad({ ...opts, port, total: Math.min(2000, opts.total) });
    const cpu0 = cpuSeconds([pid]);
    const load = await runLoad({ ...opts, port });
    return { ...load, serverCpuSeconds: cpuSeconds([pid]) - cpu0 };
  });
}

/** Both references, printed; returns their rates and p99. */
export async function measureReferences(opts: {
  connections: number;
  total: number;
  request: (i: number) => Buffer;
}): Promise<{ secpPerSecond: number; secpPerCpuSecond: number; bare: LoadResult }> {
  const secp = secpRecoveriesPerSecond();
  console.log(
    `  libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second)`,
  );
  const bare = await bareServerLoad(opts);
  const cpuUs = ((1e6 * bare.serverCpuSeconds) / bare.requests).toFixed(0);
  console.log(
    `  bare node:http server, ${opts.connections} connections: ${describeLoad(bare, 'requests')}; its CPU ${cpuUs} µs per request`,
  );
  return { secpPerSecond: secp.wall, secpPerCpuSecond: secp.perCpuSecond, bare };
}

/** `load average 1.23 1.10 0.95 (2 cores)`, as uptime prints it. */
export function loadAverage(): string {
  return `load average ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`;
}

/** The bare server (bench/lib/bare-server.ts) in a child process under the open-loop generator at the same rate. */
export function bareServerOpenLoad(opts: Omit<OpenLoadOptions, 'port'>): Promise<LoadResult> {
  const path = new URL('./bare-server.ts', import.meta.url).pathname;
  return withChildServer(path, ['--import', 'tsx'], (port) => runOpenLoad({ ...opts, port }));
}
