/**
 * The transparency log's sequencer alone (issue 36: the log's cost per anchor): signature anchors written
 * straight into a fresh store (not measured), `--per-run` at a time, then one sequencer run over them
 * (`sequenceLog`, as the `tlog.sequence` job runs it every 2 seconds), measured: the CPU of this process
 * (the service's side; on the embedded store, PGlite runs in it too) and of its PostgreSQL backends, per
 * entry, and the wall time of each of the log's statements. `--per-run 2000` is what a run sees at 1,000
 * anchors a second. Figures beside a libsecp256k1 recovery measured in the same run (bench/lib/references.ts).
 *   node --import tsx bench/tlog-sequencer.bench.ts [--store postgres|embedded|both] [--anchors 20000] [--per-run 2000]
 * Figures are printed, never asserted.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore, type OpenedStore } from '../src/adapters/store/create-store.js';
import { sequenceLog } from '../src/app/transparency/sequence-log.js';
import type { Store } from '../src/app/shared/store.port.js';
import { testDeps } from '../test/support/fixtures.js';
import { dropSchema, newSchemaName, POSTGRES_URL, schemaUrl } from '../test/support/stores.js';
import { loadAverage, secpRecoveriesPerSecond } from './lib/references.js';
import { backendPids, cpuSeconds } from './lib/service-process.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    anchors: { type: 'string', default: '20000' },
    'per-run': { type: 'string', default: '2000' },
  },
});
const APPLICATION_NAME = 'proofseal-tlog-bench';
const total = Number(args.anchors);
const perRun = Number(args['per-run']);

/** Signature anchors as the API writes them (a key, a signed identity, a hash), straight into the table. */
async function insertSignatureAnchors(s: OpenedStore, accountId: string, n: number): Promise<void> {
  const leaves = Array.from({ length: n }, () => randomBytes(32));
  await s.db.query(
    `INSERT INTO anchor (id, account_id, name, kind, hash, leaf, signature, pub_key, signed_identity, created, last_modified)
     SELECT gen_random_uuid(), $1, 'bench', 'signature', encode(sha256(l), 'hex'), l, $3, $4,
            'CN=Ada Lovelace,O=Analytical Engines,C=GB', $5, $5
     FROM unnest($2::bytea[]) WITH ORDINALITY AS t(l, o) ORDER BY o`,
    [accountId, leaves, randomBytes(65).toString('base64'), '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', Date.now()],
  );
}

/** Wraps the log's repository so each statement's wall time is summed by name. */
function timedStore(store: Store, times: Map<string, number>): Store {
  const wrapTlog = (s: Store): Store =>
    new Proxy(s, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'transaction')
          return (fn: (tx: Store) => Promise<unknown>, ...rest: unknown[]) =>
            (value as (f: typeof fn, ...r: unknown[]) => Promise<unknown>).call(
              target,
              (tx: Store) => fn(wrapTlog(tx)),
              ...rest,
            );
        if (prop !== 'tlog' && prop !== 'batches') return value;
        return new Proxy(value as object, {
          get(t, name) {
            const f = Reflect.get(t, name) as unknown;
            if (typeof f !== 'function') return f;
            return async (...a: unknown[]) => {
              const t0 = performance.now();
              try {
                return (await (f as (...x: unknown[]) => Promise<unknown>).apply(t, a)) as unknown;
              } finally {
                const key = `${String(prop)}.${String(name)}`;
                times.set(key, (times.get(key) ?? 0) + performance.now() - t0);
              }
            };
          },
        });
      },
    });
  return wrapTlog(store);
}

async function measure(kind: string, recoveryUs: number): Promise<void> {
  const schema = newSchemaName();
  const url = kind === 'postgres' ? `${schemaUrl(schema)}&application_name=${APPLICATION_NAME}` : undefined;
  const s = await openStore({ databaseUrl: url, embeddedDir: undefined, now: Date.now });
  const admin = kind === 'postgres' ? new pg.Client({ connectionString: POSTGRES_URL }) : null;
  await admin?.connect();
  try {
    const times = new Map<string, number>();
    const deps = { ...testDeps(timedStore(s.store, times)), transparency: { origin: 'bench.example/log' } };
    if (process.env.BENCH_EXTERNAL)
      await s.db.exec('ALTER TABLE tlog_bundle ALTER COLUMN entries SET STORAGE EXTERNAL');
    const accountId = randomUUID();
    // A first run: the log's key is made, the statements are prepared, V8 warms up.
    await insertSignatureAnchors(s, accountId, perRun);
    await sequenceLog(deps);
    times.clear();
    let serviceCpu = 0;
    let postgresCpu = 0;
    let wall = 0;
    let appended = 0;
    for (let done = 0; done < total; done += perRun) {
      await insertSignatureAnchors(s, accountId, perRun);
      const backends = admin ? await backendPids(admin, APPLICATION_NAME) : [];
      const c0 = process.cpuUsage();
      const p0 = cpuSeconds(backends);
      const t0 = performance.now();
      appended += (await sequenceLog(deps)).appended;
      wall += performance.now() - t0;
      const c = process.cpuUsage(c0);
      serviceCpu += (c.user + c.system) / 1e6;
      postgresCpu += cpuSeconds(backends) - p0;
    }
    const us = (seconds: number) => (seconds * 1e6) / appended;
    console.log(
      `  [${kind}] ${appended} entries in runs of ${perRun}: CPU per entry: sequencer's process ${us(serviceCpu).toFixed(1)} µs` +
        ` + PostgreSQL ${us(postgresCpu).toFixed(1)} µs = ${us(serviceCpu + postgresCpu).toFixed(1)} µs` +
        ` = ${(us(serviceCpu + postgresCpu) / recoveryUs).toFixed(2)}× one recovery; wall ${us(wall / 1000).toFixed(1)} µs an entry; ${loadAverage()}`,
    );
    const statements = [...times].sort((a, b) => b[1] - a[1]);
    console.log(
      `    wall per entry by statement: ${statements.map(([k, ms]) => `${k} ${((ms * 1000) / appended).toFixed(1)}`).join(', ')} µs`,
    );
  } finally {
    await admin?.end();
    await s.close();
    if (kind === 'postgres') await dropSchema(schema);
  }
}

const secp = secpRecoveriesPerSecond();
const recoveryUs = 1e6 / secp.perCpuSecond;
console.log(
  `\n[transparency log sequencer] ${total} signature anchors; libsecp256k1 recovery ${recoveryUs.toFixed(1)} µs CPU (one core); ${loadAverage()}`,
);
for (const kind of args.store === 'both' ? ['postgres', 'embedded'] : [args.store!]) await measure(kind, recoveryUs);
