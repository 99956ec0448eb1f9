/**
 * The "random" mode of bench/receipts.bench.ts: receipts asked for uniformly at random over every anchor
 * stored, as clients, verifiers and crawlers ask for them (each a few times at most), not a hot set.
 *
 * A seeding child fills the store in bulk SQL with anchors whose ids the load generator can compute
 * ({@link benchAnchorId}: no million ids to ship between processes), closes them in batches of
 * `batchSize` with the real `closeBatch`, confirms batch k at height k + 1 and settles all but the last
 * `unsettled` batches; it then exits. Each API process is a fresh child serving that store (its own RSS,
 * its own cold caches), from this tree or from another checkout's `src` (`--baseline DIR`), so the code
 * before and after a change is measured on the same store in the same minutes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useServiceSecp } from './service-secp.js';

/** The id of bench anchor `i` (1-based): the md5 of a counter laid out as a UUID, computed alike in SQL. */
export function benchAnchorId(i: number): string {
  const h = createHash('md5').update(`bench-${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const CHUNK = 100_000;

export interface SeedPlan {
  readonly store: 'pglite' | 'postgres';
  readonly anchors: number;
  readonly batchSize: number;
  readonly unsettled: number;
  /** PostgreSQL schema or PGlite folder. */
  readonly schema?: string;
  readonly dir?: string;
  /** A PostgreSQL server of its own instead of a schema on the machine's (bench/replicas.bench.ts). */
  readonly databaseUrl?: string;
  /** Read replicas for the API (DATABASE_REPLICA_URLS). */
  readonly replicaUrls?: readonly string[];
  /** DATABASE_PREPARED_STATEMENTS for the API (default on). */
  readonly preparedStatements?: boolean;
}

/** Where a store lives, for `openStore` of the tree at `root`. */
async function storeOptions(root: string, plan: SeedPlan) {
  const { schemaUrl } = (await import(
    path.join(root, 'test/support/stores.ts')
  )) as typeof import('../../test/support/stores.js');
  return {
    // application_name names the API's PostgreSQL backends, so the bench can read their CPU time.
    databaseUrl:
      plan.databaseUrl ??
      (plan.store === 'postgres' ? `${schemaUrl(plan.schema!)}&application_name=${plan.schema}` : undefined),
    ...(plan.replicaUrls && { replicaUrls: plan.replicaUrls }),
    ...(plan.preparedStatements !== undefined && { preparedStatements: plan.preparedStatements }),
    embeddedDir: plan.dir && path.join(plan.dir, 'pglite'),
    now: Date.now,
  };
}

/** Fills the store of `plan` (this tree's code), then returns the seconds it took. */
export async function seedRandomStore(plan: SeedPlan): Promise<number> {
  const root = path.resolve(new URL('../..', import.meta.url).pathname);
  const { openStore } = await import('../../src/adapters/store/create-store.js');
  const { createAccount } = await import('../../src/app/accounts/create-account.js');
  const { closeBatch } = await import('../../src/app/anchoring/close-batch.js');
  const t0 = performance.now();
  await useServiceSecp(root);
  const opened = await openStore(await storeOptions(root, plan));
  const deps = {
    store: opened.withJobs(() => ({ send: async () => null })),
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    jobs: { send: async () => null },
    secretKey: 'bench-secret-key-of-at-least-32-characters',
  };
  const account = await createAccount(deps as never, { email: 'bench@example.com', password: 'bench password 123' });
  for (let done = 0; done < plan.anchors; done += CHUNK) {
    const count = Math.min(CHUNK, plan.anchors - done);
    await opened.db.query(
      `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, created, last_modified)
       SELECT md5('bench-' || ($3::int + k))::uuid, $1, 'bench', 'data', encode(l, 'hex'), l, 0, 0
       FROM unnest($2::bytea[]) WITH ORDINALITY AS x(l, k) ORDER BY k`,
      [account.id, Array.from({ length: count }, () => randomBytes(32)), done],
    );
  }
  const batches = opened.store.batches;
  const ids: string[] = [];
  for (let closed = await closeBatch(deps as never, { maxSize: plan.batchSize }); closed;) {
    ids.push(closed.batchId);
    closed = await closeBatch(deps as never, { maxSize: plan.batchSize });
  }
  for (const [k, id] of ids.entries()) {
    const txId = randomBytes(32).toString('hex');
    await batches.markSent(id, txId, Date.now());
    const block = { txId, blockHash: randomBytes(32).toString('hex'), blockHeight: k + 1, blockTime: Date.now() };
    const proof = { ...block, rawTx: '00', txMerkleBranch: { siblings: [], index: 0 }, blockHeader: '00'.repeat(80) };
    await batches.recordConfirmation(id, proof, 6, Date.now());
    await batches.setConfirmations(id, { confirmations: 6, confirmed: true }, Date.now());
  }
  await batches.settleUpTo(ids.length - plan.unsettled);
  await opened.close();
  return (performance.now() - t0) / 1000;
}

/** Settles every batch of the store (this tree's code). */
export async function settleAll(plan: SeedPlan): Promise<void> {
  const root = path.resolve(new URL('../..', import.meta.url).pathname);
  const { openStore } = await import('../../src/adapters/store/create-store.js');
  const opened = await openStore(await storeOptions(root, plan));
  await opened.store.batches.settleUpTo(1_000_000_000);
  await opened.close();
}

/**
 * Records every confirmed batch's static receipts as written (`--redirect`), as the static-receipts job does
 * once it has written them: the API's redirect reads only this record, never the objects, so the bench
 * measures the API's side of the redirect without writing 100,000 objects first.
 */
export async function markStaticReceiptsWritten(plan: SeedPlan): Promise<void> {
  const root = path.resolve(new URL('../..', import.meta.url).pathname);
  const { openStore } = await import('../../src/adapters/store/create-store.js');
  const opened = await openStore(await storeOptions(root, plan));
  await opened.db.query(
    `UPDATE batch SET static_receipts_through = last_seq, static_receipts_tx = tx_id WHERE status = 'CONFIRMED'`,
  );
  await opened.close();
}

/**
 * Serves the API of the tree at `root` on the store of `plan`; sends `{ port }` when listening. Messages:
 * 'profile-start' / 'profile-stop' (answered with a summary of where the time went), 'stop'.
 */
export async function serveRandomStore(root: string, plan: SeedPlan, env: Record<string, string>): Promise<void> {
  const { openStore } = (await import(
    path.join(root, 'src/adapters/store/create-store.ts')
  )) as typeof import('../../src/adapters/store/create-store.js');
  const { buildApp } = (await import(path.join(root, 'src/http/app.ts'))) as typeof import('../../src/http/app.js');
  const { loadConfig } = (await import(path.join(root, 'src/config.ts'))) as typeof import('../../src/config.js');
  const opened = await openStore(await storeOptions(root, plan));
  const deps = {
    store: opened.withJobs(() => ({ send: async () => null })),
    clock: { now: Date.now },
    random: { bytes: randomBytes, uuid: randomUUID },
    jobs: { send: async () => null },
    secretKey: 'bench-secret-key-of-at-least-32-characters',
  };
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/proofseal-bench',
    RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
    ...env,
  });
  // With RECEIPT_REDIRECT the route needs the static receipts' settings; the API never writes an object.
  const staticReceipts = env.STATIC_RECEIPTS_URL
    ? { staticReceipts: { objects: { put: async () => undefined }, publicBaseUrl: env.STATIC_RECEIPTS_URL } }
    : {};
  const app = await buildApp({ ...deps, ...staticReceipts, readiness: {} } as never, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
  const { startProfiling, stopProfiling, summarizeProfile, topFunctions } = await import('./cpu-profile.js');
  process.on('message', async (m: string) => {
    if (m === 'profile-start') {
      await startProfiling();
      process.send!({ started: true });
    }
    if (m === 'profile-stop') {
      const profile = await stopProfiling();
      process.send!({ summary: [...summarizeProfile(profile), ...topFunctions(profile, 14)] });
    }
    if (m === 'stop') {
      await app.close();
      await opened.close();
      process.exit(0);
    }
  });
}

/** Resident set size of a process, MB (VmRSS). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}
