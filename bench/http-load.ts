/**
 * The in-process load generator and the references of the HTTP benchmarks: keep-alive node:http clients
 * sending requests as fast as answers come back, a bare node:http server answering a constant JSON body
 * (the ceiling of this box for one Node server with this client beside it). The CPU reference,
 * libsecp256k1 recoveries on one core, is `recoveriesPerSecond` in references.ts.
 */
import http from 'node:http';

/** What a run of requests measured. */
export interface LoadResult {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<number, number>;
}

function get(agent: http.Agent, port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `total` GETs over `concurrency` keep-alive connections, each connection sending its next request when
 * the previous answer has arrived; `pathOf(i)` names request i.
 */
export async function hammerGets(
  port: number,
  total: number,
  concurrency: number,
  pathOf: (i: number) => string,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const path = pathOf(next++);
        const t = performance.now();
        const status = await get(agent, port, path, headers);
        latencies.push(performance.now() - t);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { perSecond: total / seconds, p50: at(0.5), p99: at(0.99), statuses };
}

/** A bare node:http server answering every request with the same JSON body; resolves with its port. */
export function startBareServer(body: string): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ port, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
