import { staticReceiptRepository } from './static-receipt.repository.js';
import { tlogRepository } from './tlog.repository.js';
import { requestMailMarkRepository } from './request-mail-mark.repository.js';
import { sendAll, type JobQueue, type JobToSend, type StoreJobQueue } from '../../app/shared/jobs.port.js';
import type { Store } from '../../app/shared/store.port.js';
import { accountRepository, settingRepository, tokenRepository } from './account.repository.js';
import { anchorRepository } from './anchor.repository.js';
import { attestationRepository } from './attestation.repository.js';
import { signedCopyRepository } from './signed-copy.repository.js';
import { attemptCounterRepository } from './attempt-counter.repository.js';
import { batchRepository } from './batch.repository.js';
import { btcTxRepository } from './btc-tx.repository.js';
import { callbackRepository } from './callback.repository.js';
import { requestDocumentRepository } from './document.repository.js';
import { emailRepository } from './email.repository.js';
import { openEmbedded } from './embedded-database.js';
import { identityKeyRepository, identityTokenRepository } from './identity.repository.js';
import { migrate } from './migrate.js';
import { signatureRequestRepository } from './signature-request.repository.js';
import { openPostgres } from './postgres-database.js';
import type { Sql, SqlDatabase } from './sql.js';
import { unitsOfWork } from './unit-of-work.js';
import { utxoRepository } from './utxo.repository.js';
import { otpRepository } from './otp.repository.js';
import { smsRepository } from './sms.repository.js';
import { openReplicaSet, type Replica, type ReplicaReport, type ReplicaSet } from './replica-set.js';
import {
  replicaAnchors,
  replicaBatches,
  replicaStaticReceipts,
  type ReplicaRepositories,
  type RepositoriesOn,
} from './replica-reads.js';

/** Builds the job queue that sends on a given connection (the job engine's `sendOn`). */
export type JobsOn = (sql: Sql) => JobQueue;

const NO_JOBS: JobsOn = () => ({
  send: () => Promise.reject(new Error('this store was opened without a job engine (OpenedStore.withJobs)')),
});

/** The store's jobs on `queue`; in a transaction (`pending` given) enqueued jobs wait there for the commit. */
function storeJobs(queue: JobQueue, pending?: JobToSend[]): StoreJobQueue {
  return {
    send: (name, data, options) => queue.send(name, data, options),
    ...(queue.sendMany && { sendMany: (jobs: readonly JobToSend[]) => queue.sendMany!(jobs) }),
    enqueue: async (name, data, options) => {
      if (pending) pending.push({ name, data, options });
      else await sendAll(queue, [{ name, data, options }]);
    },
  };
}

/** The repositories of a replica, built once per replica (their caches and statements are its own). */
function repositoriesOn(): RepositoriesOn {
  const built = new Map<Replica, ReplicaRepositories>();
  return (replica) => {
    let r = built.get(replica);
    if (r === undefined) {
      const sql = replica.db;
      r = {
        sql,
        anchors: anchorRepository(sql, { groupCommit: false, maxInFlight: 1 }),
        batches: batchRepository(sql, { readRows: 65_536 }),
        staticReceipts: staticReceiptRepository(sql),
      };
      built.set(replica, r);
    }
    return r;
  };
}

/** The store's read-only reads that may go to a replica (replica-reads.ts), outside transactions only. */
function withReplicaReads(store: Store, replicas: ReplicaSet | undefined): Store {
  if (replicas === undefined) return store;
  const on = repositoriesOn();
  return {
    ...store,
    anchors: replicaAnchors(store.anchors, replicas, on),
    batches: replicaBatches(store.batches, replicas, on),
    staticReceipts: replicaStaticReceipts(store.staticReceipts, replicas, on),
  };
}

function storeOn(sql: Sql, kind: Store['kind'], jobsOn: JobsOn, pending?: JobToSend[]): Store {
  const inTransaction = pending !== undefined;
  // The jobs enqueued in the transaction are written in one statement before it commits.
  const transactionOn = <T>(fn: (tx: Store, txSql: Sql) => Promise<T>): Promise<T> =>
    sql.transaction(async (txSql) => {
      const enqueued: JobToSend[] = [];
      const result = await fn(storeOn(txSql, kind, jobsOn, enqueued), txSql);
      await sendAll(jobsOn(txSql), enqueued);
      return result;
    });
  const transaction = <T>(fn: (tx: Store) => Promise<T>): Promise<T> => transactionOn((tx) => fn(tx));
  // Keyed units of work share transactions (unit-of-work.ts); inside a transaction, a unit joins it.
  const units = inTransaction ? undefined : unitsOfWork(kind, transactionOn);
  return {
    kind,
    accounts: accountRepository(sql),
    tokens: tokenRepository(sql),
    settings: settingRepository(sql),
    identityKeys: identityKeyRepository(sql),
    identityTokens: identityTokenRepository(sql),
    anchors: anchorRepository(sql, { groupCommit: !inTransaction, maxInFlight: kind === 'postgres' ? 4 : 1 }),
    callbacks: callbackRepository(sql),
    batches: batchRepository(sql, { readRows: kind === 'embedded' ? 8_192 : 65_536 }),
    btcTxs: btcTxRepository(sql, kind),
    utxos: utxoRepository(sql),
    attempts: attemptCounterRepository(sql),
    emails: emailRepository(sql),
    otps: otpRepository(sql),
    sms: smsRepository(sql),
    signatureRequests: signatureRequestRepository(sql),
    requestMailMarks: requestMailMarkRepository(sql),
    attestations: attestationRepository(sql),
    signedCopies: signedCopyRepository(sql),
    requestDocuments: requestDocumentRepository(sql),
    staticReceipts: staticReceiptRepository(sql),
    tlog: tlogRepository(sql, { packedReads: kind === 'embedded' }),
    jobs: storeJobs(jobsOn(sql), pending),
    transaction: (fn, options) =>
      units && options?.unitKey !== undefined ? units.run(options.unitKey, fn) : transaction(fn),
    ping: async () => {
      await sql.query('SELECT 1');
    },
  };
}

export interface OpenedStore {
  readonly store: Store;
  readonly db: SqlDatabase;
  /** The read replicas (DATABASE_REPLICA_URLS) and how they are, when there are any. */
  readonly replicas?: () => ReplicaReport;
  /** The same store with a job queue: jobs sent through it, or through one of its transactions, go on that connection. */
  withJobs(jobsOn: JobsOn): Store;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; undefined selects the embedded store. */
  readonly databaseUrl: string | undefined;
  /** Folder of the embedded store; undefined keeps it in memory. */
  readonly embeddedDir: string | undefined;
  readonly now: () => number;
  /** Apply pending migrations on open (default true). */
  readonly migrate?: boolean;
  readonly poolSize?: number;
  /** Read replicas of the primary (PostgreSQL only). */
  readonly replicaUrls?: readonly string[];
  readonly replicaMaxLagSeconds?: number;
  /** Named prepared statements (default true); off behind a pooler in transaction mode that does not keep them. */
  readonly preparedStatements?: boolean;
}

/** Opens the configured store and brings its schema up to date. */
export async function openStore(opts: StoreOptions): Promise<OpenedStore> {
  const postgres = { max: opts.poolSize, preparedStatements: opts.preparedStatements };
  const db: SqlDatabase = opts.databaseUrl
    ? openPostgres(opts.databaseUrl, postgres)
    : await openEmbedded(opts.embeddedDir);
  try {
    if (opts.migrate !== false) await migrate(db, opts.now);
  } catch (err) {
    await db.close();
    throw err;
  }
  const urls = opts.databaseUrl ? (opts.replicaUrls ?? []) : [];
  const replicas =
    urls.length > 0
      ? openReplicaSet(db, urls, { maxLagSeconds: opts.replicaMaxLagSeconds ?? 10, postgres })
      : undefined;
  // The first check, so that reads go to a fit replica from the first request.
  await replicas?.check();
  return {
    store: withReplicaReads(storeOn(db, db.kind, NO_JOBS), replicas),
    db,
    ...(replicas && { replicas: () => replicas.report() }),
    withJobs: (jobsOn) => withReplicaReads(storeOn(db, db.kind, jobsOn), replicas),
    close: async () => {
      await replicas?.close();
      await db.close();
    },
  };
}
