/**
 * The references every benchmark prints beside its own figures, measured in the same run: libsecp256k1
 * public-key recoveries per second on one core, and a bare node:http server's requests per second.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fork } from 'node:child_process';

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
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await post();
        n += 1;
      }
    }),
  );
  const perSecond = n / ((performance.now() - t0) / 1000);
  agent.destroy();
  server.close();
  return perSecond;
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
