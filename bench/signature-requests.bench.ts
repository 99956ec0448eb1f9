/**
 * Delegated signatures through HTTP on PostgreSQL: the API runs in a child process (store, job engine
 * sending in the transaction, the local platform identity key), this process is the client: `--signers`
 * concurrent keep-alive connections sign each of `--requests` IN_PROGRESS requests (one signer each) by
 * `POST /v1/signatureRequest/{id}/delegate`. Printed beside references measured in the same run:
 * libsecp256k1 public-key recoveries/s on one core, and a bare node:http server answering the same
 * requests under the same load. Figures are printed, never asserted.
 * Also printed: the API process's CPU time and statements sent to PostgreSQL per signature (steadier
 * under a shared machine's load than throughput).
 *   node --import tsx bench/signature-requests.bench.ts [--requests 1000] [--signers 64] [--profile DIR]
 * `--profile DIR` writes a V8 CPU profile of the API child into DIR (open it in Chrome's DevTools).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { recoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    signers: { type: 'string', default: '64' },
    serve: { type: 'string' },
    profile: { type: 'string' },
  },
});
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET_KEY = 'bench-secret-key-of-at-least-32-characters';

interface Ready {
  port: number;
  pairs: { id: string; signeeId: string }[];
}

// ---------------------------------------------------------------- servers (child processes)

/** The bare reference: node:http reading the JSON body and answering a JSON object, nothing else. */
async function serveBare(count: number): Promise<void> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      JSON.parse(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ anchorId: randomUUID() }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const pairs = Array.from({ length: count }, () => ({ id: randomUUID(), signeeId: randomBytes(16).toString('hex') }));
  ready(server.address() as { port: number }, pairs, async () => {
    server.close();
  });
}

async function serveApi(count: number): Promise<void> {
  await countStatements();
  const { openStore } = await import('../src/adapters/store/create-store.js');
  const { createJobEngine } = await import('../src/adapters/jobs/job-engine.js');
  const { buildApp } = await import('../src/http/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { jobDefinitions } = await import('../src/jobs/index.js');
  const pino = (await import('pino')).default;
  const schema = `t_bench_${randomBytes(4).toString('hex')}`;
  const opened = await openStore({
    databaseUrl: `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}`,
    embeddedDir: undefined,
    now: Date.now,
    poolSize: 12,
  });
  const engine = createJobEngine(opened.db, pino({ level: 'silent' }));
  await engine.start();
  const store = opened.withJobs(engine.sendOn);
  const base = {
    store,
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    secretKey: SECRET_KEY,
  };
  const deps = { ...base, jobs: engine, platformSigner: await platformSigner(base) };
  const { fileMailer } = await import('../src/adapters/mail/nodemailer-mailer.js');
  await engine.declare(jobDefinitions(deps, { mailer: fileMailer('/tmp/proofseal-bench/mail') }));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
  });
  const app = await buildApp({ ...deps, readiness: {} }, config);
  const pairs = await seedRequests(deps, count);
  await app.listen({ port: 0, host: '127.0.0.1' });
  ready(app.server.address() as { port: number }, pairs, async () => {
    await app.close();
    await engine.stop();
    await opened.close();
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
    await c.end();
  });
}

type BaseDeps = import('../src/app/identity/identity-deps.js').IdentityDeps;

/** The platform key of the default run: a local identity key, signing in this process. */
async function platformSigner(base: Omit<BaseDeps, 'identity'>) {
  const { createIdentityKey } = await import('../src/app/identity/create-identity-key.js');
  const { localSigner } = await import('../src/app/identity/sign-hash.js');
  const identityDeps = { ...base, identity: { secretKey: SECRET_KEY, publicUrl: 'http://localhost:3001' } };
  await createIdentityKey(identityDeps, { name: 'platform', identity: { commonName: 'proofseal bench' } });
  return { signer: localSigner(identityDeps), issuerDomain: 'localhost' };
}

/** `count` IN_PROGRESS requests of one signer each, and the signer's signeeId (derived as e-mails do). */
async function seedRequests(deps: import('../src/app/shared/deps.js').AppDeps, count: number) {
  const { createAccount } = await import('../src/app/accounts/create-account.js');
  const { createSignatureRequest } = await import('../src/app/signature-requests/create-signature-request.js');
  const { signeeIdOf } = await import('../src/app/signature-requests/signee-secrets.js');
  const account = await createAccount(deps, { email: 'bench@example.com', password: 'bench password 123' });
  const pairs: { id: string; signeeId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createSignatureRequest(deps, {
      accountId: account.id,
      actor: 'bench@example.com',
      name: `bench ${i}`,
      hashToSign: randomBytes(32).toString('hex'),
      authorizedSignees: [{ commonName: `Signer ${i}`, email: `signer${i}@example.com` }],
    });
    pairs.push({ id: created.id, signeeId: signeeIdOf(deps, created.signees[0]!) });
  }
  return pairs;
}

/** Statements the API child sent to PostgreSQL (BEGIN and COMMIT included), counted from `ready`. */
let statements = 0;

/** Counts every statement sent by any `pg` client of this process (bench instrumentation only). */
async function countStatements(): Promise<void> {
  const pg = (await import('pg')).default;
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
    statements += 1;
    return query.apply(this, a);
  } as typeof pg.Client.prototype.query;
}

function ready(address: { port: number }, pairs: Ready['pairs'], stop: () => Promise<void>): void {
  process.send!({ port: address.port, pairs });
  const cpu0 = process.cpuUsage();
  const statements0 = statements;
  process.on('message', (m: string) => {
    if (m === 'stats') {
      const cpu = process.cpuUsage(cpu0);
      process.send!({
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        cpuMs: (cpu.user + cpu.system) / 1000,
        statements: statements - statements0,
      });
    }
    if (m === 'stop') void stop().then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- client (this process)

function post(agent: http.Agent, port: number, path: string, body: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function hammer(port: number, pairs: Ready['pairs'], concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let i = 0;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < pairs.length) {
        const p = pairs[i++]!;
        const r = await post(
          agent,
          port,
          `/v1/signatureRequest/${p.id}/delegate`,
          JSON.stringify({ signeeId: p.signeeId }),
        );
        latencies.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  const seconds = (performance.now() - t0) / 1000;
  return { perSecond: pairs.length / seconds, p50: pct(0.5), p99: pct(0.99), statuses: Object.fromEntries(statuses) };
}

async function run(kind: 'api' | 'bare', count: number, concurrency: number) {
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ['--serve', kind, '--requests', String(count)], {
    execArgv: [
      '--import',
      'tsx',
      ...(kind === 'api' && args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : []),
    ],
  });
  const { port, pairs } = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m: Ready) => resolve(m));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  const result = await hammer(port, pairs, concurrency);
  child.send('stats');
  const stats = await new Promise<{ maxRssMb: number; cpuMs: number; statements: number }>((r) =>
    child.once('message', r),
  );
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  return { ...result, ...stats };
}

if (args.serve === 'api') await serveApi(Number(args.requests));
else if (args.serve === 'bare') await serveBare(Number(args.requests));
else {
  const count = Number(args.requests);
  const concurrency = Number(args.signers);
  const fmt = (n: number) => n.toFixed(1);
  const recover = await recoveriesPerSecond();
  const bare = await run('bare', count, concurrency);
  const api = await run('api', count, concurrency);
  console.log(`\n[postgres] ${concurrency} concurrent signers over ${count} requests (one signer each), keep-alive`);
  console.log(
    `  POST …/delegate: ${Math.round(api.perSecond)} signatures/s; p50 ${fmt(api.p50)} ms, p99 ${fmt(api.p99)} ms; statuses ${JSON.stringify(api.statuses)}; server peak RSS ${api.maxRssMb} MB`,
  );
  console.log(
    `  per signature: ${fmt(api.cpuMs / count)} ms of API process CPU, ${fmt(api.statements / count)} statements to PostgreSQL`,
  );
  console.log(
    `  reference, bare node:http, same load: ${Math.round(bare.perSecond)} requests/s; p50 ${fmt(bare.p50)} ms, p99 ${fmt(bare.p99)} ms; peak RSS ${bare.maxRssMb} MB; ${fmt(bare.cpuMs / count)} ms CPU per request`,
  );
  console.log(`  reference, secp256k1 (${recover.backend}) recoveries on one core: ${Math.round(recover.perSecond)}/s`);
}
