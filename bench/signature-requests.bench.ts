/**
 * Delegated signatures through HTTP on PostgreSQL. The API runs in a child process as the service runs it
 * (store, job engine sending in the transaction, the local platform identity key, e-mails rendered and
 * queued in the transaction); this process is the client: `--signers` keep-alive connections of the light
 * load generator (bench/lib/http-load.ts) sign each of `--requests` IN_PROGRESS requests (one signer each,
 * so each signature also completes its request) by `POST /v1/signatureRequest/{id}/delegate`, after a
 * warm-up pass on `--warmup` other requests (2,000: with 300 the API was measured before V8 had optimised
 * the mails' rendering, 0.9–1.3 ms of CPU per signature instead of 0.6–0.9).
 * Printed beside the references of bench/lib/references.ts measured in the same run (libsecp256k1
 * recoveries on one core, a bare node:http server under the same load and the same request bytes), with
 * the ratios to them, and per signature: CPU of the API process, of the PostgreSQL backends serving it
 * (by application_name; the database runs on this machine) and of the load generator, and statements
 * sent to PostgreSQL. Figures are printed, never asserted.
 *   node --import tsx bench/signature-requests.bench.ts [--requests 1000] [--signers 64] [--warmup 2000]
 *     [--mail true|false] [--statements] [--profile DIR] [--pgbench true|false] [--processes N]
 * `--processes N` runs N API processes on one port (node:cluster), as `proofseal start --role api --processes N`
 * does, each with its own pool and shared transactions; their CPU and statements are summed.
 * `--statements` prints the statements per signature by kind, each with its mean time from send to answer
 * (with `--signers 1`, a round trip and the execution, no queueing), or with `--statement-cpu` its mean CPU
 * in the PostgreSQL backend (each connection's statements then sent one after the other); `--profile DIR` samples the API process
 * during the measured run (each open-loop rate too) only, prints its self time by category and writes the V8 profile into DIR
 * (open it in Chrome's DevTools). Last, as a ceiling of the same run, PostgreSQL's pgbench runs transactions
 * of the delegate's shape with nothing else (bench/lib/pgbench-reference.ts; `--pgbench false` skips it).
 * `--baseline DIR` also serves from another checkout (DIR/bench/signature-requests.bench.ts, with DIR/src),
 * seeded and warmed the same way, and measures both in turn, `--rounds N` times, in the same run (the open
 * loop's rates too, each tree climbing them in turn).
 * `--open-rates 250,500,…` (open loop, bench/lib/http-load.ts runOpenLoad): signers arrive at each fixed rate
 * for `--open-seconds` (each a fresh request), the bare server taking the same arrivals first; rising rates
 * stop after the first whose p99 exceeds 100 ms (or that answers anything but 200), then one rate half-way
 * is tried. `--create 2,10,50`: `POST /v1/signatureRequest` with that many signers each (their invitations
 * rendered and queued in the request's transaction), `--create-connections` closed-loop clients:
 * requests/s and mails queued/s (counted in the store). `--closed false` skips the closed-loop run.
 * `--tlog on|off|both` (default both): the transparency log's sequencer (TRANSPARENCY_LOG, the `tlog.sequence`
 * job, worked in the API process: its CPU counted with the API's) on, off, or an API of each in turn (a signature's pending log entry is written in
 * its transaction either way, as the service does). With the log on, a measured run ends once the sequencer has
 * logged every signature and event (`tlog_pending` empty, every anchor logged), so its work is inside it; the
 * log's cost is printed as the ratio of the two (issue 36).
 */
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  describeLoad,
  percentile,
  rateOf,
  rawRequest,
  runLoad,
  runOpenLoad,
  type LoadResult,
} from './lib/http-load.js';
import { bareServerOpenLoad, loadAverage, measureReferences } from './lib/references.js';
import { backendPids, cpuSeconds, freePort } from './lib/service-process.js';
import { useServiceSecp } from './lib/service-secp.js';
import { startProfiling, stopProfiling, summarizeProfile } from './lib/cpu-profile.js';
import { pgbenchReference, statementFloor } from './lib/pgbench-reference.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    signers: { type: 'string', default: '64' },
    warmup: { type: 'string', default: '2000' },
    mail: { type: 'string', default: 'true' },
    statements: { type: 'boolean', default: false },
    'statement-cpu': { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
    profile: { type: 'string' },
    pgbench: { type: 'string', default: 'true' },
    processes: { type: 'string', default: '1' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    closed: { type: 'string', default: 'true' },
    'open-rates': { type: 'string', default: '' },
    'open-seconds': { type: 'string', default: '5' },
    create: { type: 'string', default: '' },
    'create-connections': { type: 'string', default: '8' },
    tlog: { type: 'string', default: 'both' },
  },
});
// The API child inherits it (startApi).
if (args['statement-cpu']) process.env.BENCH_STATEMENT_CPU = '1';
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET_KEY = 'bench-secret-key-of-at-least-32-characters';
const APPLICATION_NAME = `proofseal-bench-sig-${process.ppid}`;

type Pair = { id: string; signeeId: string };

interface Measured {
  cpuMs: number;
  statements: number;
  /** Kind, count and summed milliseconds from send to answer. */
  byKind: [string, number, number][];
  profile: string[];
}

// ---------------------------------------------------------------- the API (child process)

interface ApiSetup {
  readonly url: string;
  readonly schema: string;
  readonly withMail: boolean;
  readonly poolSize: number;
  /** The transparency log's sequencer runs in the API's job engine. */
  readonly tlog: boolean;
}

/** The service's parts as src/runtime.ts puts them together, on the bench's schema. */
async function openApi(setup: ApiSetup, seed: boolean) {
  await countStatements();
  await useServiceSecp();
  const { openStore } = await import('../src/adapters/store/create-store.js');
  const { createJobEngine } = await import('../src/adapters/jobs/job-engine.js');
  const { buildApp } = await import('../src/http/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { jobDefinitions } = await import('../src/jobs/index.js');
  const { createVelocityEngine } = await import('../src/adapters/templates/velocity-engine.js');
  const { fileMailer } = await import('../src/adapters/mail/nodemailer-mailer.js');
  const pino = (await import('pino')).default;
  const opened = await openStore({
    databaseUrl: setup.url,
    embeddedDir: undefined,
    now: Date.now,
    poolSize: setup.poolSize,
  });
  const engine = createJobEngine(opened.db, pino({ level: 'silent' }));
  await engine.start();
  const base = {
    store: opened.withJobs(engine.sendOn),
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    secretKey: SECRET_KEY,
  };
  const seedDeps = { ...base, jobs: engine, platformSigner: await platformSigner(base, seed) };
  // As the service runs (src/runtime.ts): the workflow's mails rendered and queued with each signature.
  const mail = { engine: createVelocityEngine(), publicUrl: 'http://localhost:3000', serviceName: 'proofseal' };
  const mailed = setup.withMail ? { ...seedDeps, mail: { ...mail, serviceEmail: 'no-reply@localhost' } } : seedDeps;
  const deps = setup.tlog ? { ...mailed, transparency: { origin: 'localhost:3000/log' } } : mailed;
  const definitions = jobDefinitions(deps, { mailer: fileMailer('/tmp/proofseal-bench/mail') });
  await engine.declare(definitions);
  // The API only queues the jobs (no worker runs them here), but for the log's sequencer when it is on: its CPU
  // and statements are then counted with the API's.
  if (setup.tlog) await engine.work(definitions.filter((d) => d.name === 'tlog.sequence'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
  });
  const app = await buildApp({ ...deps, readiness: {} }, config);
  const close = async () => {
    await app.close();
    await engine.stop();
    await opened.close();
  };
  return { app, seedDeps, close, db: opened.db };
}

async function serveApi(count: number, appName: string, withMail: boolean): Promise<void> {
  if (cluster.isWorker) return serveWorker();
  const schema = `t_bench_${randomBytes(4).toString('hex')}`;
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}schema=${schema}&application_name=${appName}`;
  const processes = Number(args.processes);
  const setup = { url, schema, withMail, poolSize: Math.ceil(12 / processes), tlog: args.tlog === 'on' };
  const { app, seedDeps, close, db } = await openApi({ ...setup, poolSize: processes > 1 ? 2 : 12 }, true);
  const pairs = await seedRequests(seedDeps, count);
  const dropSchema = async () => {
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_pgboss CASCADE`);
    await c.end();
  };
  if (processes > 1) return serveCluster(setup, processes, pairs, close, dropSchema);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await ownerToken(seedDeps);
  process.send!({ port: (app.server.address() as { port: number }).port, pairs, token });
  answerSeeding(seedDeps, db);
  answerCommands(async () => {
    await close();
    await dropSchema();
  });
}

/** The primary: N API processes on one port; the commands of the client go to each, their answers summed. */
async function serveCluster(
  setup: ApiSetup,
  processes: number,
  pairs: Pair[],
  close: () => Promise<void>,
  dropSchema: () => Promise<void>,
): Promise<void> {
  if (args.profile !== undefined) throw new Error('--profile needs --processes 1');
  const port = await freePort();
  const workers = Array.from({ length: processes }, () =>
    cluster.fork({ BENCH_SIGNATURE_WORKER: JSON.stringify({ ...setup, port }) }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('listening', resolve))));
  process.send!({ port, pairs });
  const askAll = (m: object) =>
    Promise.all(
      workers.map(
        (w) =>
          new Promise<Record<string, unknown>>((resolve) => {
            w.once('message', resolve);
            w.send(m);
          }),
      ),
    );
  process.on('message', async (m: { command: string }) => {
    if (m.command === 'measure-start') {
      await askAll(m);
      process.send!({ started: true });
    }
    if (m.command === 'measure-stop') process.send!(sumMeasured((await askAll(m)) as unknown as Measured[]));
    if (m.command === 'stats') {
      const each = (await askAll(m)) as { maxRssMb: number }[];
      process.send!({ maxRssMb: Math.max(...each.map((e) => e.maxRssMb)), each: each.map((e) => e.maxRssMb) });
    }
    if (m.command === 'stop') {
      await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve).kill())));
      await close();
      await dropSchema();
      process.exit(0);
    }
  });
}

/** An API process of the cluster: its own pool, job engine and app, on the primary's port. */
async function serveWorker(): Promise<void> {
  const setup = JSON.parse(process.env.BENCH_SIGNATURE_WORKER!) as ApiSetup & { port: number };
  const { app } = await openApi(setup, false);
  await app.listen({ port: setup.port, host: '127.0.0.1' });
  answerCommands(async () => undefined);
}

/** The measures of several API processes as one. */
function sumMeasured(all: Measured[]): Measured {
  const byKind = new Map<string, [number, number]>();
  for (const m of all)
    for (const [kind, n, ms] of m.byKind) {
      const [n0, ms0] = byKind.get(kind) ?? [0, 0];
      byKind.set(kind, [n0 + n, ms0 + ms]);
    }
  return {
    cpuMs: all.reduce((a, m) => a + m.cpuMs, 0),
    statements: all.reduce((a, m) => a + m.statements, 0),
    byKind: [...byKind].map(([k, [n, ms]]): [string, number, number] => [k, n, ms]).sort((a, b) => b[1] - a[1]),
    profile: [],
  };
}

/** `seed` (more one-signer requests, for the open-loop runs) and `count-mails` (e-mails queued in the store). */
function answerSeeding(
  deps: import('../src/app/shared/deps.js').AppDeps,
  db: import('../src/adapters/store/sql.js').Sql,
): void {
  process.on('message', async (m: { command: string; count?: number }) => {
    if (m.command === 'seed') process.send!({ pairs: await seedRequests(deps, m.count!) });
    if (m.command === 'wait-log') process.send!({ waitedMs: await waitForLog(db) });
    if (m.command === 'count-mails') {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM email');
      process.send!({ mails: row!.n });
    }
  });
}

/**
 * Waits until the transparency log's sequencer has logged everything written so far: no pending signing event,
 * and every anchor (but the log's own seals) at or below its cursor. Returns the milliseconds waited.
 */
async function waitForLog(db: import('../src/adapters/store/sql.js').Sql): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const [row] = await db.query<{ done: boolean }>(
      `SELECT NOT EXISTS (SELECT 1 FROM tlog_pending)
          AND (SELECT anchor_seq FROM tlog_state) >= coalesce(
                (SELECT max(seq) FROM anchor WHERE account_id <> '00000000-0000-0000-0000-000000000000'), 0) AS done`,
    );
    if (row!.done) return performance.now() - t0;
    if (performance.now() - t0 > 120_000) {
      const [left] = await db.query(
        `SELECT (SELECT count(*) FROM tlog_pending) AS pending, (SELECT anchor_seq FROM tlog_state) AS logged,
                (SELECT max(seq) FROM anchor) AS last, (SELECT count(*) FROM tlog_checkpoint) AS checkpoints`,
      );
      throw new Error(`the transparency log is not caught up after 120 s: ${JSON.stringify(left)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let ownerAccountId: string | undefined;

/** An API token of the bench's account (bench@example.com), as an Authorization header value. */
async function ownerToken(deps: import('../src/app/shared/deps.js').AppDeps): Promise<string> {
  const { createApiToken } = await import('../src/app/accounts/manage-api-tokens.js');
  const { token } = await createApiToken(deps, { accountId: ownerAccountId! });
  return `Bearer ${token}`;
}

type BaseDeps = import('../src/app/identity/identity-deps.js').IdentityDeps;

/** The platform key of the default run: a local identity key, signing in this process (made by the primary). */
async function platformSigner(base: Omit<BaseDeps, 'identity'>, create: boolean) {
  const { createIdentityKey } = await import('../src/app/identity/create-identity-key.js');
  const { localSigner, PLATFORM_KEY_CACHE_MS } = await import('../src/app/identity/sign-hash.js');
  const identityDeps = { ...base, identity: { secretKey: SECRET_KEY, publicUrl: 'http://localhost:3001' } };
  if (create) await createIdentityKey(identityDeps, { name: 'platform', identity: { commonName: 'proofseal bench' } });
  // As src/runtime.ts builds it.
  const signer = localSigner(identityDeps, { keyCacheMs: PLATFORM_KEY_CACHE_MS });
  return { signer, inProcess: signer.on, issuerDomain: 'localhost' };
}

/** `count` IN_PROGRESS requests of one signer each, and the signer's signeeId (derived as e-mails do). */
async function seedRequests(deps: import('../src/app/shared/deps.js').AppDeps, count: number): Promise<Pair[]> {
  const { createAccount } = await import('../src/app/accounts/create-account.js');
  const { createSignatureRequest } = await import('../src/app/signature-requests/create-signature-request.js');
  const { signerSecretOf: signeeIdOf } = await import('../src/app/signature-requests/signer-secrets.js');
  ownerAccountId ??= (await createAccount(deps, { email: 'bench@example.com', password: 'bench password 123' })).id;
  const pairs: Pair[] = [];
  const one = async (i: number) => {
    const created = await createSignatureRequest(deps, {
      accountId: ownerAccountId!,
      actor: 'bench@example.com',
      name: `bench ${i}`,
      hashToSign: randomBytes(32).toString('hex'),
      authorizedSignees: [{ commonName: `Signer ${i}`, email: `signer${i}@example.com` }],
    });
    pairs[i] = { id: created.id, signeeId: signeeIdOf(deps, created.signers[0]!) };
  };
  // Eight at a time: seeding is not measured.
  for (let i = 0; i < count; i += 8)
    await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, k) => one(i + k)));
  return pairs;
}

/** Statements the API child sent to PostgreSQL (BEGIN and COMMIT included), by kind. */
const statements = new Map<string, number>();
/** Milliseconds from each statement's send to its answer, summed by kind (a round trip and the execution). */
const elapsedMs = new Map<string, number>();

/** A statement's kind: its first words, whitespace folded; kept per text (the count must cost the API little). */
const kinds = new Map<string, string>();
const kindOf = (text: string): string => {
  let kind = kinds.get(text);
  if (kind === undefined) {
    kind = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    if (kinds.size < 1000) kinds.set(text, kind);
  }
  return kind;
};

/**
 * `--statement-cpu`: each statement's CPU in its backend (/proc/<pid>/schedstat, ns) instead of its time
 * from send to answer; a connection's statements then leave one after the other (no pipelining), so
 * that each one's CPU is its own. The rates measured with it are not the service's.
 */
const backendCpuPerStatement = process.env.BENCH_STATEMENT_CPU === '1';

function timedOnBackend(client: unknown, kind: string, send: () => unknown): Promise<unknown> {
  const self = client as { processID?: number; benchChain?: Promise<unknown> };
  const cpuMs = () => {
    try {
      return Number(readFileSync(`/proc/${self.processID}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      return 0;
    }
  };
  const answer = (self.benchChain ?? Promise.resolve()).then(() => {
    const c0 = cpuMs();
    return (send() as Promise<unknown>).finally(() => elapsedMs.set(kind, (elapsedMs.get(kind) ?? 0) + cpuMs() - c0));
  });
  self.benchChain = answer.catch(() => undefined);
  return answer;
}

/** Counts every statement sent by any `pg` client of this process (bench instrumentation only). */
async function countStatements(): Promise<void> {
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...a: unknown[]) {
    const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string } | undefined)?.text);
    const kind = kindOf(text);
    statements.set(kind, (statements.get(kind) ?? 0) + 1);
    if (backendCpuPerStatement && typeof a[1] !== 'function')
      return timedOnBackend(this, kind, () => query.apply(this, a));
    const t0 = performance.now();
    const result = query.apply(this, a);
    const add = () => elapsedMs.set(kind, (elapsedMs.get(kind) ?? 0) + performance.now() - t0);
    if (result instanceof Promise) result.then(add, add);
    return result;
  } as typeof pg.Client.prototype.query;
}

const totalOf = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);

/** measure-start / measure-stop (CPU, statements, profile of the run between them), stats, stop. */
function answerCommands(stop: () => Promise<void>): void {
  let cpu0 = process.cpuUsage();
  let before = new Map<string, number>();
  let elapsedBefore = new Map<string, number>();
  process.on('message', async (m: { command: string; profile?: boolean }) => {
    if (m.command === 'measure-start') {
      if (m.profile) await startProfiling();
      before = new Map(statements);
      elapsedBefore = new Map(elapsedMs);
      cpu0 = process.cpuUsage();
      process.send!({ started: true });
    }
    if (m.command === 'measure-stop') {
      const cpu = process.cpuUsage(cpu0);
      const byKind = [...statements]
        .map(([k, n]): [string, number, number] => [
          k,
          n - (before.get(k) ?? 0),
          (elapsedMs.get(k) ?? 0) - (elapsedBefore.get(k) ?? 0),
        ])
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1]);
      const profile = m.profile ? await stopProfiling() : null;
      const measured: Measured & { raw: unknown } = {
        cpuMs: (cpu.user + cpu.system) / 1000,
        statements: totalOf(statements) - totalOf(before),
        byKind,
        profile: profile ? summarizeProfile(profile) : [],
        raw: profile,
      };
      process.send!(measured);
    }
    if (m.command === 'stats') process.send!({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
    if (m.command === 'stop') void stop().then(() => process.exit(0));
  });
}

// ---------------------------------------------------------------- the client (this process)

interface Api {
  child: ChildProcess;
  port: number;
  pairs: Pair[];
  token?: string;
  label: string;
  appName: string;
  /** The transparency log's sequencer runs in it. */
  tlog: boolean;
}

function startApi(count: number, root: string, label: string, appName: string, tlog: boolean): Promise<Api> {
  const child = fork(
    path.join(root, 'bench', 'signature-requests.bench.ts'),
    // `--tlog` only when on: a baseline tree older than the option serves as before.
    ['--serve', '--requests', String(count), '--mail', args.mail!, '--processes', args.processes!].concat(
      tlog ? ['--tlog', 'on'] : [],
    ),
    { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_APPLICATION_NAME: appName } },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number; pairs: Pair[]; token?: string }) =>
      resolve({ child, ...m, label, appName, tlog }),
    );
    child.once('exit', (code) => reject(new Error(`API server exited with ${code}`)));
  });
}

/** Sends a command to the API process and waits for its answer. */
function ask<T>(child: ChildProcess, command: object): Promise<T> {
  child.send(command);
  return new Promise((resolve) => child.once('message', resolve as (m: unknown) => void));
}

const delegate = (p: Pair) =>
  rawRequest(
    'POST',
    `/v1/signatureRequest/${p.id}/delegate`,
    { 'content-type': 'application/json', 'user-agent': 'proofseal-bench' },
    JSON.stringify({ signeeId: p.signeeId }),
  );

/** The measured run: the API's CPU and statements, the PostgreSQL backends' CPU and this process's CPU. */
async function measure(api: Api, connections: number, requests: Buffer[]) {
  const db = new pg.Client({ connectionString: POSTGRES_URL });
  await db.connect();
  const backends = await backendPids(db, api.appName);
  const profile = args.profile !== undefined;
  await ask(api.child, { command: 'measure-start', profile });
  // Per backend: one that ended during the run (an idle pool connection closed) is left out.
  const pg0 = backends.map((pid) => cpuSeconds([pid]));
  const client0 = process.cpuUsage();
  const load = await runLoad({ port: api.port, connections, total: requests.length, request: (i) => requests[i]! });
  // With the log on, the run ends once the sequencer has logged it (the client only waits meanwhile).
  const logWait = api.tlog ? (await ask<{ waitedMs: number }>(api.child, { command: 'wait-log' })).waitedMs : 0;
  const client = process.cpuUsage(client0);
  const pgCpu = backends.reduce((sum, pid, i) => {
    const now = cpuSeconds([pid]);
    return now > 0 ? sum + Math.max(0, now - pg0[i]!) : sum;
  }, 0);
  const server = await ask<Measured & { raw: unknown }>(api.child, { command: 'measure-stop', profile });
  await db.end();
  if (profile) {
    mkdirSync(args.profile!, { recursive: true });
    const file = path.join(args.profile!, `signature-requests-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(server.raw));
    console.log(`  API CPU profile of the measured run: ${file}`);
  }
  return {
    load,
    server,
    pgCpuMs: pgCpu * 1000,
    clientCpuMs: (client.user + client.system) / 1000,
    backends,
    logWait,
  };
}

function report(
  r: Awaited<ReturnType<typeof measure>>,
  refs: { secpPerSecond: number; secpPerCpuSecond: number; bare: LoadResult },
  connections: number,
): void {
  const n = r.load.requests;
  const rate = rateOf(r.load);
  const ms = (v: number) => v.toFixed(2);
  const p99 = percentile(r.load.latencies, 0.99);
  const mean = r.load.latencies.reduce((a, b) => a + b, 0) / n;
  console.log(
    `  POST …/delegate: ${describeLoad(r.load, 'signatures')}${r.logWait > 0 ? `; every signature logged ${(r.logWait / 1000).toFixed(1)} s after the load` : ''}`,
  );
  console.log(
    `  ratios: ${((100 * rate) / rateOf(refs.bare)).toFixed(1)} % of the bare server's requests/s, p99 ${(p99 / percentile(refs.bare.latencies, 0.99)).toFixed(1)}× the bare server's; ${loadAverage()}`,
  );
  console.log(
    `  per signature: API ${ms(r.server.cpuMs / n)} ms CPU (${Math.round((1000 * n) / r.server.cpuMs)} signatures per API CPU second), PostgreSQL backends ${ms(r.pgCpuMs / n)} ms CPU (${r.backends.length} backends), load generator ${ms(r.clientCpuMs / n)} ms CPU; ${(r.server.statements / n).toFixed(1)} statements`,
  );
  console.log(
    `  Little's law, ${connections} closed-loop clients: mean latency ${ms(mean)} ms = ${connections} / ${Math.round(rate)}/s (${ms((1000 * connections) / rate)} ms); p99 ≤ 50 ms needs a mean well under 50 ms, i.e. well over ${Math.round((1000 * connections) / 50)} signatures/s`,
  );
  if (args.statements) printStatements(r.server, n);
  if (r.server.profile.length > 0) console.log(['  API CPU profile (self time):', ...r.server.profile].join('\n'));
}

/** The log's cost per signature, for each tree measured with the log off and on (`--tlog both`). */
function reportLogCost(apis: Api[], spent: Map<Api, { cpuMs: number; n: number }>): void {
  const perSignature = (a: Api) => spent.get(a)!.cpuMs / spent.get(a)!.n;
  for (let i = 0; i + 1 < apis.length; i += 2) {
    const [off, on] = [apis[i]!, apis[i + 1]!];
    const tree = off.label.replace(/, transparency log off$/, '');
    console.log(
      `  [${tree}] the transparency log's cost: ${(perSignature(on) - perSignature(off)).toFixed(3)} ms CPU per signature (API + PostgreSQL: ${perSignature(off).toFixed(3)} ms off, ${perSignature(on).toFixed(3)} ms on), signatures per CPU second ×${(perSignature(off) / perSignature(on)).toFixed(3)} with it; ${loadAverage()}`,
    );
  }
}

/** The statements per signature by kind, each with its mean time from send to answer (`--statements`). */
function printStatements(server: Measured, n: number): void {
  console.log(
    `    ${(server.statements / n).toFixed(2)} statements per signature; per signature × statement (${backendCpuPerStatement ? 'mean ms of backend CPU, statements not pipelined' : 'mean ms from send to answer: round trip, waits and execution'})`,
  );
  for (const [kind, count, elapsed] of server.byKind)
    console.log(`    ${(count / n).toFixed(2).padStart(6)} × ${kind} (${(elapsed / count).toFixed(2)} ms)`);
}

async function main(): Promise<void> {
  const count = Number(args.requests);
  const warmup = Number(args.warmup);
  const connections = Number(args.signers);
  const rounds = Number(args.rounds);
  const closed = args.closed === 'true';
  const here = path.resolve(new URL('..', import.meta.url).pathname);
  const trees = [{ label: 'this tree', root: here }];
  if (args.baseline !== undefined) trees.push({ label: 'baseline', root: path.resolve(args.baseline) });
  const modes = args.tlog === 'both' ? [false, true] : [args.tlog === 'on'];
  const variants = trees.flatMap((t) =>
    modes.map((tlog) => ({ ...t, tlog, label: `${t.label}, transparency log ${tlog ? 'on' : 'off'}` })),
  );
  const apis: Api[] = [];
  // One after the other: seeding is not measured, and two at once would only load the machine more.
  for (const [i, v] of variants.entries())
    apis.push(
      await startApi(closed ? count * rounds + warmup : 0, v.root, v.label, `${APPLICATION_NAME}-${i}`, v.tlog),
    );
  /** CPU (API + PostgreSQL backends) and signatures measured, by API. */
  const spent = new Map<Api, { cpuMs: number; n: number }>();
  const api = apis[0]!;
  let measured: Awaited<ReturnType<typeof measure>> | undefined;
  if (closed) {
    console.log(
      `\n[postgres] ${connections} concurrent signers over ${count} requests (one signer each), keep-alive, mails ${args.mail === 'true' ? 'queued' : 'off'}${args.baseline ? `; this tree and the baseline ${args.baseline} in turn, ${rounds} round(s)` : ''}; ${loadAverage()}`,
    );
    // The bare server gets requests of the same size (signeeIds of the same form) under the same generator.
    const fake = Array.from({ length: count }, (_, i) =>
      delegate({ id: randomUUID(), signeeId: api.pairs[i]!.signeeId }),
    );
    const refs = await measureReferences({ connections, total: count, request: (i) => fake[i]! });
    for (const a of apis) {
      const warm = a.pairs.slice(count * rounds).map(delegate);
      await runLoad({ port: a.port, connections, total: warm.length, request: (i) => warm[i]! });
      if (a.tlog) await ask(a.child, { command: 'wait-log' });
    }
    for (let round = 0; round < rounds; round++)
      for (const a of round % 2 === 0 ? apis : [...apis].reverse()) {
        const requests = a.pairs.slice(round * count, (round + 1) * count).map(delegate);
        if (apis.length > 1) console.log(` ${a.label}, round ${round + 1}:`);
        measured = await measure(a, connections, requests);
        report(measured, refs, connections);
        const sum = spent.get(a) ?? { cpuMs: 0, n: 0 };
        spent.set(a, {
          cpuMs: sum.cpuMs + measured.server.cpuMs + measured.pgCpuMs,
          n: sum.n + measured.load.requests,
        });
      }
    if (modes.length === 2) reportLogCost(apis, spent);
  }
  if (args['open-rates'] !== '')
    for (let round = 0; round < (apis.length > 1 ? rounds : 1); round++)
      for (const a of round % 2 === 0 ? apis : [...apis].reverse()) {
        if (apis.length > 1) console.log(`\n ${a.label}, round ${round + 1}:`);
        await openLoop(a);
      }
  if (args.create !== '') await creating(api);
  for (const a of apis) {
    const { maxRssMb } = await ask<{ maxRssMb: number }>(a.child, { command: 'stats' });
    console.log(`  API peak RSS (${a.label}): ${maxRssMb} MB`);
    a.child.send({ command: 'stop' });
    await new Promise((resolve) => a.child.once('exit', resolve));
  }
  if (args.pgbench === 'true' && measured) await reportPgbench(connections, rateOf(measured.load));
}

/**
 * Signers arriving at fixed rates (open loop), each signing a fresh request: p50/p99 at each rate beside the
 * bare server's under the same arrivals, and the highest rate whose p99 is at most 100 ms.
 */
async function openLoop(api: Api): Promise<void> {
  const seconds = Number(args['open-seconds']);
  const rates = args['open-rates']!.split(',').map(Number);
  console.log(
    `\n[postgres] open loop: delegated signatures arriving at a fixed rate for ${seconds} s each (one fresh request each, its one signer; mails ${args.mail === 'true' ? 'queued' : 'off'}), latency from each arrival; ${loadAverage()}`,
  );
  const secp = (await import('./lib/references.js')).secpRecoveriesPerSecond();
  console.log(
    `  libsecp256k1 recoveries, one core: ${Math.round(secp.wall)}/s (${Math.round(secp.perCpuSecond)} per CPU second)`,
  );
  // Warm the API (V8's optimisation of the signing path and the mails' rendering) before the first rate.
  const warm = (await ask<{ pairs: Pair[] }>(api.child, { command: 'seed', count: 1000 })).pairs.map(delegate);
  await runLoad({ port: api.port, connections: 32, total: warm.length, request: (i) => warm[i]! });
  let best: number | undefined;
  let failed: number | undefined;
  const tryRate = async (rate: number): Promise<boolean> => {
    const total = Math.round(rate * seconds);
    const pairs = (await ask<{ pairs: Pair[] }>(api.child, { command: 'seed', count: total })).pairs;
    const requests = pairs.map(delegate);
    const fake = pairs.map((p) => delegate({ id: randomUUID(), signeeId: p.signeeId }));
    const bare = await bareServerOpenLoad({ rate, total, request: (i) => fake[i]! });
    const db = new pg.Client({ connectionString: POSTGRES_URL });
    await db.connect();
    const backends = await backendPids(db, api.appName);
    await db.end();
    const pg0 = backends.map((pid) => cpuSeconds([pid]));
    const profile = args.profile !== undefined;
    await ask(api.child, { command: 'measure-start', profile });
    const load = await runOpenLoad({ port: api.port, rate, total, request: (i) => requests[i]! });
    const server = await ask<Measured & { raw: unknown }>(api.child, { command: 'measure-stop', profile });
    // Per backend, as in measure: one that ended during the run is left out. The pool may have closed its
    // idle connections while the bare server ran and opened new ones for the load: a backend that started
    // during the run counts whole (its start included).
    const after = new pg.Client({ connectionString: POSTGRES_URL });
    await after.connect();
    const newBackends = (await backendPids(after, api.appName)).filter((pid) => !backends.includes(pid));
    await after.end();
    const pgMs =
      1000 *
      (backends.reduce((sum, pid, i) => {
        const now = cpuSeconds([pid]);
        return now > 0 ? sum + Math.max(0, now - pg0[i]!) : sum;
      }, 0) +
        cpuSeconds(newBackends));
    const p = (r: LoadResult, q: number) => percentile(r.latencies, q).toFixed(1);
    const ok = (load.statuses.get(200) ?? 0) === total;
    console.log(
      `  ${rate}/s: ${describeLoad(load, 'signatures')}, max ${load.latencies.at(-1)!.toFixed(1)} ms; bare server at the same arrivals p50 ${p(bare, 0.5)} ms, p99 ${p(bare, 0.99)} ms; per signature API ${(server.cpuMs / total).toFixed(2)} ms CPU, PostgreSQL ${(pgMs / total).toFixed(2)} ms; ${loadAverage()}`,
    );
    if (args.statements) printStatements(server, total);
    if (profile) {
      mkdirSync(args.profile!, { recursive: true });
      writeFileSync(
        path.join(args.profile!, `signature-open-${rate}-${Date.now()}.cpuprofile`),
        JSON.stringify(server.raw),
      );
      console.log(['  API CPU profile (self time):', ...server.profile].join('\n'));
    }
    return ok && percentile(load.latencies, 0.99) <= 100;
  };
  for (const rate of rates) {
    if (await tryRate(rate)) best = rate;
    else {
      failed = rate;
      break;
    }
  }
  if (failed !== undefined && best !== undefined && failed - best > 50) {
    const mid = Math.round((best + failed) / 2 / 10) * 10;
    if (await tryRate(mid)) best = mid;
  }
  console.log(
    `  highest rate tried with p99 ≤ 100 ms: ${best === undefined ? 'none' : `${best}/s`}${failed === undefined ? ' (no rate tried exceeded it)' : ''}`,
  );
}

/** Creating requests over HTTP with 2, 10, 50… signers, their invitations rendered and queued: requests/s, mails/s. */
async function creating(api: Api): Promise<void> {
  if (api.token === undefined) throw new Error('--create needs --processes 1');
  const connections = Number(args['create-connections']);
  console.log(
    `\n[postgres] creating requests, POST /v1/signatureRequest, ${connections} closed-loop clients (invitations rendered and queued in the request's transaction); ${loadAverage()}`,
  );
  for (const signers of args.create!.split(',').map(Number)) {
    const total = Math.max(20, Math.round(400 / signers));
    const body = (n: number) =>
      rawRequest(
        'POST',
        '/v1/signatureRequest',
        { 'content-type': 'application/json', authorization: api.token!, 'user-agent': 'proofseal-bench' },
        JSON.stringify({
          name: `bench create ${n}`,
          hashToSign: randomBytes(32).toString('hex'),
          authorizedSignees: Array.from({ length: signers }, (_, k) => ({
            commonName: `Signer ${k} of ${n}`,
            email: `create${n}-${k}@example.com`,
          })),
        }),
      );
    const bodies = Array.from({ length: total + 20 }, (_, n) => body(n + signers * 100_000));
    await runLoad({ port: api.port, connections, total: 20, request: (i) => bodies[total + i]! });
    const mails0 = (await ask<{ mails: number }>(api.child, { command: 'count-mails' })).mails;
    await ask(api.child, { command: 'measure-start', profile: false });
    const load = await runLoad({ port: api.port, connections, total, request: (i) => bodies[i]! });
    const server = await ask<Measured>(api.child, { command: 'measure-stop', profile: false });
    const mails = (await ask<{ mails: number }>(api.child, { command: 'count-mails' })).mails - mails0;
    console.log(
      `  ${signers} signers: ${describeLoad(load, 'requests')}; ${mails} mails queued = ${Math.round(mails / load.seconds)} mails/s; API ${(server.cpuMs / total).toFixed(2)} ms CPU per request (${(server.cpuMs / Math.max(1, mails)).toFixed(3)} ms per mail); ${loadAverage()}`,
    );
  }
}

/** The database's own ceiling for a transaction of the delegate's shape, beside the signatures/s measured. */
async function reportPgbench(connections: number, signaturesPerSecond: number): Promise<void> {
  const ref = await pgbenchReference(POSTGRES_URL, connections);
  if (ref === undefined) return;
  const cpu = ref.backendCpuMs === undefined ? '' : `, PostgreSQL backends ${ref.backendCpuMs.toFixed(2)} ms CPU`;
  console.log(
    `  reference: pgbench, one signature's 8 statements in a transaction of their own (the delegate before shared transactions; prepared, ${connections} clients, no HTTP, no application): ${Math.round(ref.transactionsPerSecond)} transactions/s, latency mean ${ref.latencyMs.toFixed(1)} ms; per transaction${cpu}, pgbench ${ref.clientCpuMs.toFixed(2)} ms CPU; ${loadAverage()}`,
  );
  console.log(
    `  signatures/s = ${((100 * signaturesPerSecond) / ref.transactionsPerSecond).toFixed(0)} % of the database's own rate for such one-signature transactions on this box`,
  );
  const floor = await statementFloor(POSTGRES_URL);
  const us = (v: number) => v.toFixed(0);
  console.log(
    `  reference: a trivial statement through node-postgres on one connection (5,000 each): SELECT $1 prepared ${us(floor.select.backendUs)} µs backend CPU, ${us(floor.select.clientUs)} µs client CPU; BEGIN/COMMIT ${us(floor.beginCommit.backendUs)} and ${us(floor.beginCommit.clientUs)} µs per statement`,
  );
}

if (args.serve)
  await serveApi(Number(args.requests), process.env.BENCH_APPLICATION_NAME ?? 'proofseal-bench', args.mail === 'true');
else await main();
