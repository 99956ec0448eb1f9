/** Anchor ingest load for the crash cycles: clients posting data anchors, keeping the acknowledged ids. */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

export interface Load {
  /** Ids of anchors the API acknowledged (2xx with the anchor in the body). */
  readonly acknowledged: Set<string>;
  readonly statuses: Record<string, number>;
  readonly sent: number;
  stop(): Promise<void>;
}

/** One `POST /v1/anchor` of a fresh data anchor; `'no answer'` when the connection failed. */
function postAnchor(agent: http.Agent, port: number, token: string): Promise<{ status: string; id?: string }> {
  const body = JSON.stringify({ name: 'crash cycles', hash: randomBytes(32).toString('hex') });
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/anchor',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const status = String(res.statusCode);
          const ok = res.statusCode !== undefined && res.statusCode < 300;
          resolve({ status, id: ok ? (JSON.parse(text) as { id: string }).id : undefined });
        });
        res.on('error', () => resolve({ status: 'no answer' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 'no answer' }));
    req.end(body);
  });
}

/** Starts `concurrency` clients posting anchors back to back (100 ms pause after a failed connection). */
export function startLoad(o: { port: number; token: string; concurrency: number }): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const acknowledged = new Set<string>();
  const statuses: Record<string, number> = {};
  let sent = 0;
  let running = true;
  const lane = async () => {
    while (running) {
      const r = await postAnchor(agent, o.port, o.token);
      sent += 1;
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.id) acknowledged.add(r.id);
      if (r.status === 'no answer') await new Promise((s) => setTimeout(s, 100));
    }
  };
  const lanes = Array.from({ length: o.concurrency }, lane);
  return {
    acknowledged,
    statuses,
    get sent() {
      return sent;
    },
    async stop() {
      running = false;
      await Promise.all(lanes);
      agent.destroy();
    },
  };
}
