import { PgBoss, type Db as IDatabase, type Job, type JobInsert, type QueuePolicy as BossQueuePolicy } from 'pg-boss';
import type { Logger } from 'pino';
import type { JobQueue, JobToSend, SendOptions } from '../../app/shared/jobs.port.js';
import type { JobDefinition, QueuePolicy } from '../../app/shared/job-definition.port.js';
import type { Sql, SqlDatabase } from '../store/sql.js';
import { payloadCheck } from './payload-check.js';

/** pg-boss's database hook: runs its SQL on the Store's own connection (pool or PGlite). */
function bossDb(db: SqlDatabase): IDatabase {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return { rows: await db.query(text, values) };
      if (db.kind === 'postgres') return { rows: await db.query(text) };
      // PGlite prepares every query, so a text of several statements (pg-boss's migrations and locked
      // maintenance) is refused at parse time, before anything runs; exec sends it as one simple query.
      try {
        return { rows: await db.query(text) };
      } catch (err) {
        if (!/multiple commands/.test(String((err as Error).message))) throw err;
        // pg-boss 12 reads the rows of every statement (its background migrations' claim takes a lock first).
        if (db.execRows) return { rows: await db.execRows(text) };
        await db.exec(text);
        return { rows: [] };
      }
    },
  };
}

/** pg-boss's database hook for one send on a given connection (a transaction's): one statement with values. */
function sendDb(sql: Sql): IDatabase {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await sql.query(text, values) }) };
}

/** pg-boss's hook for `insert`, whose answer is not read: in a transaction, sent with the commit (Sql.write). */
function insertDb(sql: Sql): IDatabase {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      await sql.write(text, values);
      return { rows: [] };
    },
  };
}

/**
 * The port's queue policies in pg-boss's words: `standard` keeps every job; `stately` allows one job in each
 * of its states (created/retry, active) per queue, which is "one queued, one running".
 */
const BOSS_POLICY: Record<QueuePolicy, BossQueuePolicy> = {
  'any-number': 'standard',
  'one-queued-one-running': 'stately',
};

/** A job as pg-boss's `insert` takes it (the same options as `send`, one statement for all of a queue). */
function toInsert(j: JobToSend): JobInsert {
  const o = j.options ?? {};
  return {
    data: j.data,
    ...(o.singletonKey !== undefined && { singletonKey: o.singletonKey }),
    ...(o.singletonSeconds !== undefined && { singletonSeconds: o.singletonSeconds }),
    ...(o.startAfterSeconds !== undefined && { startAfter: String(o.startAfterSeconds) }),
    ...(o.priority !== undefined && { priority: o.priority }),
  };
}

export interface JobEngine extends JobQueue {
  /** A queue that sends on this connection: inside a transaction, the job exists only if it commits. */
  sendOn(sql: Sql): JobQueue;
  start(): Promise<void>;
  /** Creates the queue of each definition (idempotent). Any role may send jobs after this. */
  declare(defs: readonly JobDefinition[]): Promise<void>;
  /** Starts working these definitions in this process, and their schedules. */
  work(defs: readonly JobDefinition[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How often pg-boss 12 deletes finished jobs (its `maintenanceIntervalSeconds`; expiry is no longer part of it).
 */
const MAINTENANCE_INTERVAL_SECONDS = 30;
/**
 * How often pg-boss 12 looks for jobs past their expiry (a worker that died leaves its job `active`): its
 * supervise pass and, within it, each queue's monitor. Their defaults, 60 s each, put a crashed worker's job
 * back up to two minutes after its expiry, past the recovery bound of test/anchoring/bitcoin/send-crash.test.ts (pg-boss
 * 10 did expiry in its maintenance pass, which was set to 30 s).
 */
const SUPERVISE_INTERVAL_SECONDS = 10;

/** An arbitrary constant: the advisory lock under which pg-boss starts (and installs itself) on PostgreSQL. */
const BOSS_START_LOCK = 7_202_611_024;

/**
 * Starts pg-boss, one process at a time on PostgreSQL. pg-boss installs its schema without guarding against
 * another process doing the same: engines started together on a fresh database (roles started at once by an
 * orchestrator) collided on `pg_namespace_nspname_index` or `pg_type_typname_nsp_index`, errors pg-boss does
 * not take for "already installed", and one process exited. The embedded store has one process only.
 */
async function startSerialised(db: SqlDatabase, boss: PgBoss): Promise<void> {
  if (db.kind !== 'postgres') {
    await boss.start();
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOSS_START_LOCK]);
    await boss.start();
  });
}

/** The schema version pg-boss 10 left (12 migrates from 11's, 25, only). */
const BOSS_10_SCHEMA_VERSION = 24;

/**
 * A job queue left by pg-boss 10, which 12 cannot migrate: its schema is renamed `<schema>_v10` (under the
 * start lock) so that 12 installs afresh; {@link moveLegacyJobs} then moves its waiting jobs over.
 */
async function setAsideBoss10(db: SqlDatabase, bossSchema: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [BOSS_START_LOCK]);
    const [installed] = await tx.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [
      `${bossSchema}.version`,
    ]);
    if (!installed?.ok) return;
    const [found] = await tx.query<{ version: number }>(`SELECT version FROM ${bossSchema}.version LIMIT 1`);
    if (found === undefined || found.version > BOSS_10_SCHEMA_VERSION) return;
    await tx.query(`ALTER SCHEMA ${bossSchema} RENAME TO ${bossSchema}_v10`);
  });
}

interface LegacyJob {
  id: string;
  name: string;
  data: object | null;
  priority: number;
  retry_limit: number;
  singleton_key: string | null;
}

/**
 * The jobs of `queues` that pg-boss 10 still held (created, retry, or active when the processes stopped), sent
 * again into 12's queues and deleted from the old schema in one transaction. One-queued-one-running queues are
 * left: their work is periodic and sent again by its schedules.
 */
async function moveLegacyJobs(db: SqlDatabase, boss: PgBoss, bossSchema: string, queues: string[]): Promise<number> {
  const legacy = `${bossSchema}_v10`;
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [BOSS_START_LOCK]);
    const [exists] = await tx.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${legacy}.job`]);
    if (!exists?.ok || queues.length === 0) return 0;
    const jobs = await tx.query<LegacyJob>(
      `DELETE FROM ${legacy}.job WHERE state IN ('created', 'retry', 'active') AND name = ANY($1::text[])
       RETURNING id, name, data, priority, retry_limit, singleton_key`,
      [queues],
    );
    const byQueue = new Map<string, LegacyJob[]>();
    for (const j of jobs) byQueue.set(j.name, [...(byQueue.get(j.name) ?? []), j]);
    for (const [name, ofQueue] of byQueue) {
      const inserts = ofQueue.map((j) => ({
        data: j.data ?? {},
        priority: j.priority,
        retryLimit: j.retry_limit,
        ...(j.singleton_key !== null && { singletonKey: j.singleton_key }),
      }));
      await boss.insert(name, inserts, { db: insertDb(tx) });
    }
    return jobs.length;
  });
}

export function createJobEngine(
  db: SqlDatabase,
  log: Logger,
  opts: { pollingIntervalSeconds?: number } = {},
): JobEngine {
  const bossSchema = db.schema ? `${db.schema}_pgboss` : 'pgboss';
  const boss = new PgBoss({
    db: bossDb(db),
    schema: bossSchema,
    supervise: true,
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
    superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
    monitorIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
    schedule: false,
    migrate: true,
  });
  boss.on('error', (err) => log.error({ err }, 'job engine error'));
  const timers: NodeJS.Timeout[] = [];
  const options = (o: SendOptions) => ({
    singletonKey: o.singletonKey,
    singletonSeconds: o.singletonSeconds,
    startAfter: o.startAfterSeconds,
    ...(o.priority !== undefined && { priority: o.priority }),
  });
  const send = (name: string, data: object, o: SendOptions = {}) => boss.send(name, data, options(o));

  return {
    send,
    sendOn: (sql) => ({
      send: (name, data, o = {}) => boss.send(name, data, { ...options(o), db: sendDb(sql) }),
      sendMany: async (jobs) => {
        const byQueue = new Map<string, JobToSend[]>();
        for (const j of jobs) byQueue.set(j.name, [...(byQueue.get(j.name) ?? []), j]);
        for (const [name, ofQueue] of byQueue) await boss.insert(name, ofQueue.map(toInsert), { db: insertDb(sql) });
      },
    }),
    start: async () => {
      await setAsideBoss10(db, bossSchema);
      await startSerialised(db, boss);
    },
    async declare(defs) {
      for (const d of defs) {
        const existing = await boss.getQueue(d.name);
        const options = {
          retryLimit: d.retryLimit,
          retryDelay: d.retryDelaySeconds,
          retryBackoff: d.retryBackoff,
          expireInSeconds: d.expireInSeconds,
        };
        // pg-boss keeps a queue's policy from its creation (12 refuses to be asked to change it).
        if (existing) await boss.updateQueue(d.name, options);
        else await boss.createQueue(d.name, { ...options, policy: BOSS_POLICY[d.policy] });
      }
      const open = defs.filter((d) => d.policy === 'any-number').map((d) => d.name);
      const moved = await moveLegacyJobs(db, boss, bossSchema, open);
      if (moved > 0) log.info({ moved }, "jobs moved from pg-boss 10's queue into pg-boss 12's");
    },
    async work(defs) {
      for (const d of defs) {
        const run = checkedHandler(d);
        for (let i = 0; i < (d.concurrency ?? 1); i++) await workOne(d.name, run);
        if (d.everySeconds !== undefined) schedule(d, d.everySeconds);
      }
    },
    async stop() {
      timers.forEach(clearInterval);
      await boss.stop({ graceful: true, close: false, timeout: 10_000 });
    },
  };

  /**
   * One pg-boss worker of a queue, one job at a time. pg-boss waits its polling interval after every fetch,
   * one that found a job too, which held a queue to one job per interval (the mail backlog drained at 1/s):
   * a worker that found a job is notified at once, so it looks again without waiting while there is work.
   */
  async function workOne(name: string, run: (job: Job<unknown>) => Promise<void>): Promise<void> {
    let id = '';
    id = await boss.work(
      name,
      { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
      async (jobs) => {
        try {
          for (const job of jobs) await run(job);
        } finally {
          if (jobs.length > 0 && id !== '') boss.notifyWorker(id);
        }
      },
    );
  }

  /**
   * The definition's handler behind its payload check. Data that does not match the schema would fail
   * the same way on every retry, so the job's retry limit is brought down to its retry count before
   * failing it: pg-boss then records it `failed` with the reason, at once.
   */
  function checkedHandler(d: JobDefinition): (job: Job<unknown>) => Promise<void> {
    const check = payloadCheck(d.schema);
    return async (job) => {
      const problem = check(job.data);
      if (problem === null) return d.handle(job.data);
      log.error({ queue: d.name, jobId: job.id, problem }, 'invalid job payload: the job fails without retries');
      await db.query(`UPDATE ${bossSchema}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2`, [
        d.name,
        job.id,
      ]);
      throw new Error(`invalid payload for ${d.name}: ${problem}`);
    };
  }

  function schedule(d: JobDefinition, every: number): void {
    const tick = () => {
      send(d.name, {}, { singletonKey: d.name, singletonSeconds: every }).then(
        (id) => log.debug({ job: d.name, queued: id !== null }, 'scheduled job sent (queued once per slot)'),
        (err: unknown) => log.warn({ err, job: d.name }, 'could not schedule job'),
      );
    };
    tick();
    timers.push(setInterval(tick, every * 1000).unref());
  }
}
