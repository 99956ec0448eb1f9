/**
 * Anchors through HTTP on real sockets: the API runs in a child process, this process is the client
 * (64 concurrent keep-alive connections, Bearer auth, signature anchors signed beforehand; the light
 * load generator of bench/lib/http-load.ts). Measures its references first, in the same run
 * (libsecp256k1 recoveries/s on one core, a bare node:http server under the same load), then prints
 * anchors accepted/s with the ratios to both, receipts served/s and latency with `--receipts N`
 * anchors stored in one batch (0: no receipts), and the server's peak RSS. Run on each store:
 *   node --import tsx bench/anchors.bench.ts [--store embedded|postgres|both] [--anchors 30000] [--receipts 100000] [--concurrency 64] [--profile]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { describeLoad, percentile, rateOf, rawRequest, runLoad, type LoadResult } from './lib/http-load.js';
import { loadAverage, measureReferences } from './lib/references.js';
import { signatureBodies } from './lib/anchor-bodies.js';
import { cpuSeconds } from './lib/service-process.js';
import { startProfiling, stopProfiling, summarizeProfile } from './lib/cpu-profile.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '30000' },
    receipts: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '30000' },
    auth: { type: 'string', default: 'bearer' },
    concurrency: { type: 'string', default: '64' },
    serve: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
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
    if (m === 'profile-start') await startProfiling().then(() => process.send!({ profiling: true }));
    if (m === 'profile-stop') process.send!({ profile: summarizeProfile(await stopProfiling()) });
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
  const connections = Number(args.concurrency);
  const anchors = Number(args.anchors);
  const receipts = Number(args.receipts);
  const bodies = signatureBodies(anchors);
  const t0 = performance.now();
  const server = await startServer(store, receipts);
  const setup = ((performance.now() - t0) / 1000).toFixed(1);
  // Bearer: the token is looked up on every request; Basic: the auth plugin caches a checked login for a minute.
  const authorization =
    args.auth === 'basic'
      ? `Basic ${Buffer.from('bench@example.com:bench password 123').toString('base64')}`
      : `Bearer ${server.token}`;
  const headers = { authorization, 'content-type': 'application/json' };
  const posts = bodies.map((body) => rawRequest('POST', '/v1/anchor', headers, body));
  console.log(
    `\n[${store}] ${connections} connections, keep-alive, ${args.auth} auth (setup ${setup} s); ${loadAverage()}`,
  );
  const refs = await measureReferences({ connections, total: anchors, request: (i) => posts[i]! });
  await runLoad({ port: server.port, connections, total: 500, request: (i) => posts[i % posts.length]! });
  if (args.profile) await ask(server.child, 'profile-start');
  const cpu0 = cpuSeconds([server.child.pid!]);
  const create = await runLoad({ port: server.port, connections, total: anchors, request: (i) => posts[i]! });
  const serverCpu = cpuSeconds([server.child.pid!]) - cpu0;
  if (args.profile)
    console.log(['  server CPU profile (self time):', ...(await ask(server.child, 'profile-stop')).profile].join('\n'));
  console.log(`  POST /v1/anchor (signature anchors, verified, durable): ${describeLoad(create, 'anchors')}`);
  console.log(`  ratios: ${ratios(create, refs)}; ${loadAverage()}`);
  const perCpu = anchors / serverCpu;
  console.log(
    `  server CPU: ${serverCpu.toFixed(1)} s = ${Math.round(perCpu)} anchors per CPU second (${((100 * perCpu) / refs.secpPerCpuSecond).toFixed(0)} % of recoveries per CPU second)`,
  );
  if (receipts > 0) await benchReceipts(server, connections, receipts);
  const stats = await ask(server.child, 'stats');
  server.child.send('stop');
  await new Promise((resolve) => server.child.once('exit', resolve));
  console.log(`  server peak RSS: ${stats.maxRssMb} MB`);
}

/** Sends a command to the server process and waits for its answer. */
function ask(child: ChildProcess, command: string): Promise<{ maxRssMb: number; profile: string[] }> {
  child.send(command);
  return new Promise((resolve) => child.once('message', resolve));
}

/** Anchors/s as a share of one core's recoveries and of the bare server; p99 as a multiple of the bare server's. */
function ratios(r: LoadResult, refs: { secpPerSecond: number; bare: LoadResult }): string {
  const pctOf = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
  const p99 = percentile(r.latencies, 0.99) / percentile(refs.bare.latencies, 0.99);
  return `${pctOf(rateOf(r), refs.secpPerSecond)} of one core's recoveries, ${pctOf(rateOf(r), rateOf(refs.bare))} of the bare server's requests/s, p99 ${p99.toFixed(1)}× the bare server's`;
}

async function benchReceipts(server: { port: number; receiptIds: string[] }, connections: number, receipts: number) {
  const ids = server.receiptIds;
  const gets = ids.map((id) => rawRequest('GET', `/v1/receipt/${id}`, {}));
  const total = Number(args.requests);
  const get = await runLoad({ port: server.port, connections, total, request: (i) => gets[i % gets.length]! });
  console.log(`  GET /v1/receipt/{id} (batch of ${receipts}): ${describeLoad(get, 'receipts')}`);
}

if (args.serve) {
  await serve(args.store!, Number(args.receipts));
} else {
  for (const store of args.store === 'both' ? ['embedded', 'postgres'] : [args.store!]) await benchStore(store);
}
