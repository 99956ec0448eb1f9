/**
 * The ceilings every benchmark figure is compared with, measured in the same run (the machines are
 * shared and noisy): libsecp256k1 public-key recoveries per second on one core, and a bare node:http
 * server under the same load generator as the service.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import secp from 'secp256k1/bindings.js';
import { describeLoad, runLoad, type LoadResult } from './http-load.js';

/**
 * Recoveries of distinct signatures on this thread (one core) for about `seconds`: per second of wall
 * time, and per CPU second (what one core does when it is not shared, as on a loaded machine it is).
 */
export function secpRecoveriesPerSecond(seconds = 2): { wall: number; perCpuSecond: number } {
  const samples = Array.from({ length: 512 }, () => {
    const hash = randomBytes(32);
    const { signature, recid } = secp.ecdsaSign(hash, randomBytes(32));
    return { hash, signature, recid };
  });
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    for (const s of samples) secp.ecdsaRecover(s.signature, s.recid, s.hash, true);
    done += samples.length;
  }
  const wall = done / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  return { wall, perCpuSecond: done / ((cpu.user + cpu.system) / 1e6) };
}

/** The bare server (bench/lib/bare-server.ts) in a child process, driven with `request(i)` like the service. */
export async function bareServerLoad(opts: {
  connections: number;
  total: number;
  request: (i: number) => Buffer;
}): Promise<LoadResult> {
  const child = fork(new URL('./bare-server.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  await runLoad({ ...opts, port, total: Math.min(2000, opts.total) });
  const result = await runLoad({ ...opts, port });
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  return result;
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
  console.log(`  bare node:http server, ${opts.connections} connections: ${describeLoad(bare, 'requests')}`);
  return { secpPerSecond: secp.wall, secpPerCpuSecond: secp.perCpuSecond, bare };
}

/** `load average 1.23 1.10 0.95 (2 cores)`, as uptime prints it. */
export function loadAverage(): string {
  return `load average ${os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`;
}
