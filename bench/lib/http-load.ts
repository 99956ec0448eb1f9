/**
 * A light HTTP/1.1 load generator for the benchmarks: `connections` keep-alive sockets, each sending a
 * prepared request and waiting for its response before the next (no pipelining). It parses only the
 * status line and Content-Length, so it leaves most of the machine's CPU to the server under test; the
 * same generator drives the bare reference server and the service, so their figures compare.
 */
import { appendFileSync } from 'node:fs';
import net from 'node:net';

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** Latencies in ms, sorted. */
  readonly latencies: number[];
  readonly statuses: Map<number, number>;
}

export interface LoadOptions {
  readonly port: number;
  readonly connections: number;
  readonly total: number;
  /** The raw bytes of request `i` (see {@link rawRequest}). */
  readonly request: (i: number) => Buffer;
}

/** The raw bytes of one HTTP/1.1 keep-alive request. */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (method !== 'GET') lines.push(`content-length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** Sends `total` requests over `connections` sockets and measures each one's latency. */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      const conn = await connect(opts.port);
      try {
        while (next < opts.total) {
          const started = performance.now();
          const status = await conn.exchange(opts.request(next++));
          latencies.push(performance.now() - started);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      } finally {
        conn.close();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { requests: latencies.length, seconds, latencies: latencies.sort((a, b) => a - b), statuses };
}

interface Connection {
  exchange(request: Buffer): Promise<number>;
  close(): void;
}

function connect(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(keepAliveConnection(socket));
    });
  });
}

function keepAliveConnection(socket: net.Socket): Connection {
  let buffered: Buffer = Buffer.alloc(0);
  let waiting: { resolve(status: number): void; reject(err: Error): void } | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    const size = responseSize(buffered);
    if (size === null || buffered.length < size || waiting === null) return;
    const status = Number(buffered.toString('latin1', 9, 12));
    buffered = buffered.subarray(size);
    const w = waiting;
    waiting = null;
    w.resolve(status);
  });
  const failWaiting = (err: Error) => waiting?.reject(err);
  socket.on('error', failWaiting);
  socket.on('close', () => failWaiting(new Error('server closed the connection')));
  return {
    exchange: (request) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        socket.write(request);
      }),
    close: () => socket.destroy(),
  };
}

/** Total bytes of the response at the head of `buf` (headers + Content-Length body), or null if incomplete. */
function responseSize(buf: Buffer): number | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const match = /\r\ncontent-length: *(\d+)/i.exec(buf.toString('latin1', 0, end));
  if (match === null) throw new Error('the load generator needs responses with a Content-Length');
  return end + 4 + Number(match[1]);
}

/** The latency at percentile `p` (0..1) of sorted latencies, ms. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

/** One line: count, seconds, rate, p50/p99 and the statuses seen. */
export function describeLoad(r: LoadResult, unit: string): string {
  const rate = Math.round(r.requests / r.seconds);
  const p = (q: number) => percentile(r.latencies, q).toFixed(1);
  const statuses = JSON.stringify(Object.fromEntries(r.statuses));
  return `${r.requests} in ${r.seconds.toFixed(2)} s = ${rate} ${unit}/s; p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; statuses ${statuses}`;
}

/** Requests per second of a run. */
export const rateOf = (r: LoadResult): number => r.requests / r.seconds;

export interface OpenLoadOptions {
  readonly port: number;
  /** Requests per second, sent on schedule whatever the answers (open loop). */
  readonly rate: number;
  readonly total: number;
  /** The raw bytes of request `i`. */
  readonly request: (i: number) => Buffer;
  /** Keep-alive sockets opened before the run (default 256); a request due while all are busy waits for one. */
  readonly connections?: number;
}

/**
 * Open loop: request `i` is due at `i / rate` seconds from the start and sent then, on a free keep-alive
 * socket, whether or not earlier requests have been answered (arrivals at a fixed rate, as signers arrive,
 * not a fixed number of clients each waiting for its answer). Each latency runs from the moment the request
 * was due, so a server falling behind shows in it (no coordinated omission), waits for a socket included.
 */
export async function runOpenLoad(opts: OpenLoadOptions): Promise<LoadResult> {
  const free = await Promise.all(Array.from({ length: opts.connections ?? 256 }, () => connect(opts.port)));
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const queued: number[] = [];
  const byArrival: number[] = [];
  const interval = 1000 / opts.rate;
  let answered = 0;
  const t0 = performance.now();
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const send = (conn: Connection, i: number): void => {
    void conn.exchange(opts.request(i)).then((status) => {
      latencies.push(performance.now() - (t0 + i * interval));
      byArrival[i] = latencies.at(-1)!;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      answered += 1;
      const next = queued.shift();
      if (next === undefined) free.push(conn);
      else send(conn, next);
      if (answered === opts.total) done();
    });
  };
  for (let i = 0; i < opts.total;) {
    const now = performance.now();
    for (; i < opts.total && t0 + i * interval <= now; i++) {
      const conn = free.pop();
      if (conn) send(conn, i);
      else queued.push(i);
    }
    if (i < opts.total) await new Promise((r) => setTimeout(r, Math.max(0, t0 + i * interval - performance.now())));
  }
  await finished;
  const seconds = (performance.now() - t0) / 1000;
  for (const conn of free) conn.close();
  // BENCH_OPEN_TRACE=FILE: each request's latency by arrival (when in the run the tail is), a JSON line a run.
  if (process.env.BENCH_OPEN_TRACE)
    appendFileSync(
      process.env.BENCH_OPEN_TRACE,
      `${JSON.stringify({ rate: opts.rate, byArrival: byArrival.map((l) => Math.round(l * 10) / 10) })}\n`,
    );
  return { requests: latencies.length, seconds, latencies: latencies.sort((a, b) => a - b), statuses };
}
