/** References measured in the same run as a benchmark's figures (boxes of one kind differ up to 3×). */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** libsecp256k1 public-key recoveries per second on this core (the cost that dominates signature checks). */
export async function recoveriesPerSecond(): Promise<{ perSecond: number; backend: string }> {
  const { secp, activeSecpBackend } = await import('../src/core/bitcoin/secp-backend.js');
  const lib = secp();
  const hash = randomBytes(32);
  const { signature, recid } = lib.sign(hash, randomBytes(32));
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) {
    for (let i = 0; i < 500; i++) lib.recover(signature, recid, hash, true);
    n += 500;
  }
  return { perSecond: n / ((performance.now() - t0) / 1000), backend: activeSecpBackend() };
}

/** Runs `use` against a bare node:http server in a child process (bench/bare-server.mjs), then stops it. */
export async function bareServer<T>(use: (port: number) => Promise<T>): Promise<T> {
  const child = fork(new URL('./bare-server.mjs', import.meta.url).pathname);
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  try {
    return await use(port);
  } finally {
    child.removeAllListeners('exit');
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}
