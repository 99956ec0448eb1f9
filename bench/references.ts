/** Reference figures measured in the same run as a benchmark, so its figures can be read as ratios. */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

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

/** Sequential keep-alive GETs per second against a bare node:http server in this process, for 2 s. */
export async function bareHttpPerSecond(): Promise<number> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { port } = server.address() as { port: number };
  const get = () =>
    new Promise<void>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) {
    await get();
    n += 1;
  }
  agent.destroy();
  server.close();
  return n / ((performance.now() - t0) / 1000);
}
