/**
 * The fuzz at scale, on real sockets: `proofseal start --role api` on PostgreSQL (with a regtest node
 * for the chain client) in a child process; this process sends `--requests` random requests spread over
 * every route of the server's own OpenAPI document (signature-request routes included), built by the
 * generators of test/support/fuzz.ts: random path parameters, queries and bodies, U+0000 and lone
 * surrogates, huge numbers, wrong types, prototype keys, content types, right and wrong credentials.
 * Counts every answer by status, and fails (exit 1) on any 5xx, any error outside the catalogue's shape,
 * or any request the server did not answer. Same seed, same requests.
 *   node --import tsx bench/fuzz.bench.ts [--requests 100000] [--concurrency 16] [--seed 12]
 */
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { openStore } from '../src/adapters/store/create-store.js';
import { createAccount } from '../src/app/accounts/create-account.js';
import { createApiToken } from '../src/app/accounts/manage-api-tokens.js';
import { STATUS_OF } from '../src/http/error-codes.js';
import { testDeps } from '../test/support/fixtures.js';
import { fuzzRequest, openApiRoutes, type FuzzCredentials, type FuzzRequest } from '../test/support/fuzz.js';
import { freePort } from '../test/support/processes.js';
import { dropSchema, newSchemaName, schemaUrl } from '../test/support/stores.js';
import { startNode } from './regtest-node.js';
import { bareServer, recoveriesPerSecond } from './lib/references.js';
import { benchEnv, spawnRole, stopChild, untilAnswers } from './service.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: '12' },
  },
});

/**
 * Percent of requests with a wrong password or an unknown e-mail: each costs the server a password hash,
 * which would otherwise make the run a password-hashing benchmark (the fuzz test sends 10 %).
 */
const COSTLY_AUTH_PERCENT = 2;

interface Answer {
  status: number;
  body: string;
}

/** Sends one request; a socket error or timeout is an answer of status 0 (the server did not answer). */
function send(agent: http.Agent, port: number, r: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: r.method, path: r.url, headers: r.headers, timeout: 30_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, body: String(err) }));
    req.end(r.payload);
  });
}

/** What is wrong with an answer, or undefined: a 5xx, no answer, or an error not in the one shape. */
function problemOf(a: Answer): string | undefined {
  if (a.status === 0 || a.status >= 500) return `status ${a.status}`;
  if (a.status < 400) return undefined;
  try {
    const e = JSON.parse(a.body) as { statusCode?: number; code?: string; error?: unknown };
    const catalogued = STATUS_OF[e.code as keyof typeof STATUS_OF];
    if (catalogued !== a.status || e.statusCode !== a.status || typeof e.error !== 'string')
      return 'error outside the catalogue';
  } catch {
    return 'error body not JSON';
  }
  return undefined;
}

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  byRoute: Map<string, { below400: number; errors: number }>;
  failures: { request: FuzzRequest; answer: Answer; problem: string }[];
  seconds: number;
}

/** Sends all requests, `concurrency` at a time on keep-alive connections, and tallies the answers. */
async function hammer(
  port: number,
  requests: { route: string; request: FuzzRequest }[],
  concurrency: number,
): Promise<Tally> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const tally: Tally = { sent: 0, byStatus: new Map(), byRoute: new Map(), failures: [], seconds: 0 };
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < requests.length) {
      const { route, request } = requests[next++]!;
      const answer = await send(agent, port, request);
      tally.sent += 1;
      tally.byStatus.set(answer.status, (tally.byStatus.get(answer.status) ?? 0) + 1);
      const r = tally.byRoute.get(route) ?? { below400: 0, errors: 0 };
      if (answer.status < 400) r.below400 += 1;
      else r.errors += 1;
      tally.byRoute.set(route, r);
      const problem = problemOf(answer);
      if (problem) tally.failures.push({ request, answer, problem });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  tally.seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return tally;
}

/** A schema with one account and its API token: the fuzz's right credentials. */
async function seedAccount(url: string): Promise<FuzzCredentials> {
  const opened = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now });
  const email = 'fuzz@example.com';
  const password = 'fuzzing password';
  const account = await createAccount(testDeps(opened.store), { email, password });
  const { token } = await createApiToken(testDeps(opened.store), { accountId: account.id });
  await opened.close();
  return { token, email, password };
}

async function openApi(port: number): Promise<{ method: string; url: string }[]> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
  return openApiRoutes((await res.json()) as { paths: Record<string, Record<string, unknown>> });
}

/** `total` requests, round-robin over the routes, each route's drawn from its own seeded stream. */
function plan(routes: { method: string; url: string }[], credentials: FuzzCredentials, total: number, seed: number) {
  const perRoute = Math.ceil(total / routes.length);
  const samples = routes.map((route, i) =>
    fc
      .sample(fuzzRequest(route, credentials, COSTLY_AUTH_PERCENT), { numRuns: perRoute, seed: seed + i })
      .map((request) => ({
        route: `${route.method} ${route.url}`,
        request,
      })),
  );
  return Array.from({ length: perRoute }, (_, k) => samples.map((s) => s[k]!)).flat();
}

function report(t: Tally, bare: { perSecond: number }, recoveries: number): void {
  const fivexx = [...t.byStatus].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
  console.log(`\n[postgres, real sockets] ${t.sent} requests in ${t.seconds.toFixed(1)} s`);
  console.log(`  5xx or unanswered: ${fivexx}; other problems: ${t.failures.length - fivexx}`);
  console.log(`  statuses: ${JSON.stringify(Object.fromEntries([...t.byStatus].sort(([a], [b]) => a - b)))}`);
  console.log(`  throughput ${Math.round(t.sent / t.seconds)} requests/s`);
  console.log(`  reference, bare node:http, same client: ${Math.round(bare.perSecond)} requests/s`);
  console.log(`  reference, libsecp256k1 recoveries on one core: ${Math.round(recoveries)}/s`);
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`  per route (answers < 400 / errors):`);
  for (const [route, r] of [...t.byRoute].sort()) console.log(`    ${route}: ${r.below400} / ${r.errors}`);
  const fivexxFirst = [...t.failures].sort((a, b) => Number(b.answer.status >= 500) - Number(a.answer.status >= 500));
  for (const f of fivexxFirst.slice(0, 20))
    console.log(
      `  FAIL ${f.problem}: ${JSON.stringify(f.request)} → ${f.answer.status} ${f.answer.body.slice(0, 300)}`,
    );
}

async function main(): Promise<number> {
  const total = Number(args.requests);
  const concurrency = Number(args.concurrency);
  const recoveries = (await recoveriesPerSecond()).perSecond;
  const schema = newSchemaName();
  const node = await startNode();
  const credentials = await seedAccount(schemaUrl(schema));
  const port = await freePort();
  const server = spawnRole(
    'api',
    {
      DATABASE_URL: schemaUrl(schema),
      DATA_DIR: `/tmp/proofseal-fuzz-${schema}`,
      SECRET_KEY: 'fuzz-secret-key-of-at-least-32-characters',
      BITCOIN_RPC_URL: node.rpcUrl.replace(/\/$/, ''),
      ...benchEnv(port),
    },
    ['ignore', 'inherit', 'inherit'],
  );
  try {
    await untilAnswers(server, port);
    const routes = await openApi(port);
    console.log(`${routes.length} routes in the OpenAPI document; load average ${os.loadavg()[0]!.toFixed(2)}`);
    const requests = plan(routes, credentials, total, Number(args.seed));
    const bare = await bareServer((p) => hammer(p, requests.slice(0, 20_000), concurrency));
    const tally = await hammer(port, requests, concurrency);
    report(tally, { perSecond: bare.sent / bare.seconds }, recoveries);
    if (server.exitCode !== null) console.log(`the server exited with ${server.exitCode}`);
    return tally.failures.length === 0 && server.exitCode === null ? 0 : 1;
  } finally {
    await stopChild(server, 'SIGTERM');
    await node.stop();
    await dropSchema(schema);
  }
}

process.exit(await main());
