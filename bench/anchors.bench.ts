/**
 * Anchors through HTTP on real sockets: the API runs in a child process, this process is the client
 * (64 concurrent keep-alive connections, Bearer auth, signature anchors signed beforehand).
 * Prints anchors accepted/s, then receipts served/s and latency with `--receipts N` anchors stored
 * in one batch, and the server's peak RSS. Run on each store:
 *   node --import tsx bench/anchors.bench.ts [--store embedded|postgres|both] [--anchors 30000] [--receipts 100000] [--concurrency 64]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '30000' },
    receipts: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '30000' },
    auth: { type: 'string', default: 'bearer' },
    concurrency: { type: 'string', default: '64' },
    serve: { type: 'boolean', default: false },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// ---------------------------------------------------------------- server (child process)

async function serve(store: string, receiptCount: number): Promise<void> {
  const { openStore } = await import('../src/adapters/store/create-store.js');
  const { buildApp } = await import('../src/http/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { createAccount } = await import('../src/app/accounts/create-account.js');
  const { createApiToken } = await import('../src/app/accounts/manage-api-tokens.js');
  const schema = `t_bench_${randomBytes(4).toString('hex')}`;
  const url = store === 'postgres' ? `${POSTGRES_URL}?schema=${schema}` : undefined;
  const opened = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now, poolSize: 12 });
  const deps = {
    store: opened.store,
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    jobs: { send: async () => null },
    secretKey: 'bench-secret-key-of-at-least-32-characters',
  };
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
  });
  const app = await buildApp({ ...deps, readiness: {} }, config);
  const account = await createAccount(deps, { email: 'bench@example.com', password: 'bench password 123' });
  const { token } = await createApiToken(deps, { accountId: account.id });
  const receiptIds = await seedBatch(opened.db, account.id, receiptCount);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.send!({ ready: true, port, token, receiptIds: receiptIds.slice(0, 20_000) });
  process.on('message', async (m: string) => {
    if (m === 'stats') process.send!({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    if (m === 'stop') {
      await app.close();
      await opened.db.exec(`SELECT 1`);
      await opened.close();
      if (store === 'postgres') {
        const pg = (await import('pg')).default;
        const c = new pg.Client({ connectionString: POSTGRES_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      }
      process.exit(0);
    }
  });
}

/** `count` data anchors in one SENT batch, written in bulk; returns their ids (random order). */
async function seedBatch(
  db: import('../src/adapters/store/sql.js').SqlDatabase,
  accountId: string,
  count: number,
): Promise<string[]> {
  if (count === 0) return [];
  const { buildMerkleTreeFromPacked, merkleRoot, serializeTree } = await import('../src/core/merkle/index.js');
  const packed = randomBytes(count * 32);
  const tree = buildMerkleTreeFromPacked(packed);
  const batchId = randomUUID();
  const now = Date.now();
  await db.query(
    `INSERT INTO batch (id, status, root, leaf_count, tree, tx_id, confirmations, created, last_modified) VALUES ($1,'SENT',$2,$3,$4,$5,0,$6,$6)`,
    [batchId, Buffer.from(merkleRoot(tree)), count, serializeTree(tree), randomBytes(32).toString('hex'), now],
  );
  const ids: string[] = [];
  for (let start = 0; start < count; start += 20_000) {
    const n = Math.min(20_000, count - start);
    const chunkIds = Array.from({ length: n }, () => randomUUID());
    ids.push(...chunkIds);
    const leaves = Array.from({ length: n }, (_, i) =>
      packed.subarray((start + i) * 32, (start + i + 1) * 32).toString('hex'),
    );
    await db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, batch_id, leaf_index, created, last_modified)
       SELECT t.id, $1, 'seed', 'data', t.h, decode(t.h, 'hex'), $2, $3 + t.i - 1, $4, $4 FROM unnest($5::uuid[], $6::text[]) WITH ORDINALITY AS t(id, h, i)`,
      [accountId, batchId, start, now, chunkIds, leaves],
    );
  }
  return ids.sort(() => Math.random() - 0.5);
}

// ---------------------------------------------------------------- client (this process)

interface Result {
  status: number;
  ms: number;
}

function request(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Result> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function hammer(
  total: number,
  concurrency: number,
  next: (i: number) => Promise<Result>,
): Promise<{ seconds: number; latencies: number[]; statuses: Map<number, number> }> {
  let i = 0;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < total) {
        const r = await next(i++);
        latencies.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, latencies: latencies.sort((a, b) => a - b), statuses };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(1);

async function signatureBodies(n: number): Promise<string[]> {
  const { publicKeyOf, signMessage } = await import('../src/core/bitcoin/signed-message.js');
  const { addressFromPublicKey } = await import('../src/core/bitcoin/addresses.js');
  const key = randomBytes(32);
  const pubKey = addressFromPublicKey(publicKeyOf(key), 'p2pkh', 'mainnet');
  return Array.from({ length: n }, (_, i) => {
    const signedHash = randomBytes(32).toString('hex');
    return JSON.stringify({
      name: `bench-${i}`,
      signedHash,
      signature: signMessage(signedHash, key),
      pubKey,
      identityURL: 'https://id.example.com/identity',
    });
  });
}

function startServer(
  store: string,
  receipts: number,
): Promise<{ child: ChildProcess; port: number; token: string; receiptIds: string[] }> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve', '--store', store, '--receipts', String(receipts)], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number; token: string; receiptIds: string[] }) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function benchStore(store: string): Promise<void> {
  const concurrency = Number(args.concurrency);
  const anchors = Number(args.anchors);
  const receipts = Number(args.receipts);
  const bodies = await signatureBodies(anchors);
  const t0 = performance.now();
  const server = await startServer(store, receipts);
  const setup = ((performance.now() - t0) / 1000).toFixed(1);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  // Bearer: the token is looked up on every request; Basic: the auth plugin caches a checked login for a minute.
  const authorization =
    args.auth === 'basic'
      ? `Basic ${Buffer.from('bench@example.com:bench password 123').toString('base64')}`
      : `Bearer ${server.token}`;
  const headers = { authorization, 'content-type': 'application/json' };
  await hammer(500, concurrency, (i) =>
    request(agent, server.port, 'POST', '/v1/anchor', headers, bodies[i % bodies.length]),
  );
  const create = await hammer(anchors, concurrency, (i) =>
    request(agent, server.port, 'POST', '/v1/anchor', headers, bodies[i]),
  );
  const ids = server.receiptIds;
  const total = Number(args.requests);
  const get = await hammer(total, concurrency, (i) =>
    request(agent, server.port, 'GET', `/v1/receipt/${ids[i % ids.length]}`, {}),
  );
  server.child.send('stats');
  const stats = await new Promise<{ maxRssMb: number }>((resolve) => server.child.once('message', resolve));
  server.child.send('stop');
  await new Promise((resolve) => server.child.once('exit', resolve));
  agent.destroy();
  const fmt = (m: Map<number, number>) => JSON.stringify(Object.fromEntries(m));
  console.log(
    `\n[${store}] concurrency ${concurrency}, keep-alive, ${args.auth} auth; ${receipts} anchors seeded in one batch (setup ${setup} s)`,
  );
  console.log(
    `  POST /v1/anchor (signature anchors, verified): ${anchors} in ${create.seconds.toFixed(2)} s = ${Math.round(anchors / create.seconds)} anchors/s; p50 ${pct(create.latencies, 0.5)} ms, p99 ${pct(create.latencies, 0.99)} ms; statuses ${fmt(create.statuses)}`,
  );
  console.log(
    `  GET /v1/receipt/{id} (batch of ${receipts}): ${total} in ${get.seconds.toFixed(2)} s = ${Math.round(total / get.seconds)} receipts/s; p50 ${pct(get.latencies, 0.5)} ms, p99 ${pct(get.latencies, 0.99)} ms; statuses ${fmt(get.statuses)}`,
  );
  console.log(`  server peak RSS: ${stats.maxRssMb} MB`);
}

if (args.serve) {
  await serve(args.store!, Number(args.receipts));
} else {
  for (const store of args.store === 'both' ? ['embedded', 'postgres'] : [args.store!]) await benchStore(store);
}
