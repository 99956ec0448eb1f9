import { openPostgres, type PostgresOptions } from './postgres-database.js';
import type { SqlDatabase } from './sql.js';

/** What one replica is, as last checked. */
export interface ReplicaState {
  /** host:port (never the credentials). */
  readonly name: string;
  /** `streaming`: fit to read from; `lagging`: further behind than the setting; `down`: does not answer. */
  readonly state: 'unknown' | 'streaming' | 'lagging' | 'down' | 'not a replica';
  /** Seconds behind the primary (0 when it has replayed all the primary had written at the last check). */
  readonly lagSeconds: number | null;
}

/** The replicas as `/ready` and the metrics show them. */
export interface ReplicaReport {
  /** The replica reads go to now (round robin over the fit ones: the next one), null: the primary. */
  readonly inUse: string | null;
  readonly maxLagSeconds: number;
  /** False when the primary did not answer the last check (lags are then against what each replica received). */
  readonly primaryReachable: boolean;
  readonly replicas: readonly ReplicaState[];
}

export interface Replica {
  readonly name: string;
  readonly db: SqlDatabase;
  /** A read on it failed to connect: not used again until a check finds it answering. */
  markDown(): void;
}

export interface ReplicaSet {
  /** A replica fit to read from, or undefined: read the primary. */
  pick(): Replica | undefined;
  report(): ReplicaReport;
  /** Checks every replica now (also done every `checkMs`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  readonly maxLagSeconds: number;
  readonly checkMs?: number;
  readonly postgres?: PostgresOptions;
}

/** A WAL position (`16/B374D848`) as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** The primary's WAL position at a moment: a replica that has not replayed it is behind by at least the time since. */
interface PrimarySample {
  readonly at: number;
  readonly lsn: bigint;
}

interface ReplicaRow {
  in_recovery: boolean;
  replay: string | null;
  receive: string | null;
  since: number | null;
}

const REPLICA_POSITION = `SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replay,
  pg_last_wal_receive_lsn()::text AS receive,
  extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp())::float8 AS since`;

/**
 * The lag of a replica that replayed up to `replay`: 0 when it holds the primary's last sampled position,
 * else the age of the oldest sample it has not reached (the samples are the primary's positions, one a
 * check). So the lag is measured on the primary's clock of writes, not on the last transaction's timestamp,
 * which grows on an idle primary.
 */
export function lagOf(replay: bigint, samples: readonly PrimarySample[], now: number): number {
  const last = samples.at(-1);
  if (last === undefined || replay >= last.lsn) return 0;
  const oldestUnreached = samples.find((s) => s.lsn > replay) ?? samples[0]!;
  return (now - oldestUnreached.at) / 1000;
}

function nameOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/**
 * The read replicas of DATABASE_REPLICA_URLS, checked every `checkMs`: each one's replay position against
 * the primary's (sampled on the primary at each check), so a replica further behind than `maxLagSeconds`,
 * or down, or promoted (no longer in recovery), is skipped until a check finds it fit again.
 */
export function openReplicaSet(primary: SqlDatabase, urls: readonly string[], opts: ReplicaSetOptions): ReplicaSet {
  const checkMs = opts.checkMs ?? 1000;
  const keepMs = (opts.maxLagSeconds + 5) * 1000;
  const samples: PrimarySample[] = [];
  let primaryReachable = true;
  let next = 0;
  let checking: Promise<void> | undefined;
  const members = urls.map((url) => {
    const db = openPostgres(url, opts.postgres);
    const member = {
      name: nameOf(url),
      db,
      state: 'unknown' as ReplicaState['state'],
      lagSeconds: null as number | null,
      markDown: () => {
        member.state = 'down';
        member.lagSeconds = null;
      },
    };
    return member;
  });

  async function samplePrimary(): Promise<void> {
    try {
      const [row] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      samples.push({ at: Date.now(), lsn: lsnBytes(row!.lsn) });
      primaryReachable = true;
    } catch {
      primaryReachable = false;
    }
    while (samples.length > 1 && samples[0]!.at < Date.now() - keepMs) samples.shift();
  }

  async function checkOne(m: (typeof members)[number]): Promise<void> {
    try {
      const [row] = await m.db.query<ReplicaRow>(REPLICA_POSITION);
      const { in_recovery, replay, receive, since } = row!;
      if (!in_recovery || replay === null) {
        m.state = 'not a replica';
        m.lagSeconds = null;
        return;
      }
      // With the primary away, a replica that replayed all it received is as fresh as can be.
      m.lagSeconds = primaryReachable
        ? lagOf(lsnBytes(replay), samples, Date.now())
        : receive !== null && lsnBytes(replay) >= lsnBytes(receive)
          ? 0
          : (since ?? Infinity);
      m.state = m.lagSeconds <= opts.maxLagSeconds ? 'streaming' : 'lagging';
    } catch {
      m.markDown();
    }
  }

  const check = (): Promise<void> =>
    (checking ??= (async () => {
      await samplePrimary();
      await Promise.all(members.map(checkOne));
    })().finally(() => (checking = undefined)));
  const timer = setInterval(() => void check(), checkMs).unref();

  const fit = () => members.filter((m) => m.state === 'streaming');
  return {
    pick() {
      const ok = fit();
      if (ok.length === 0) return undefined;
      return ok[next++ % ok.length];
    },
    report() {
      const ok = fit();
      return {
        inUse: ok.length === 0 ? null : ok[next % ok.length]!.name,
        maxLagSeconds: opts.maxLagSeconds,
        primaryReachable,
        replicas: members.map(({ name, state, lagSeconds }) => ({
          name,
          state,
          lagSeconds: lagSeconds === null ? null : Math.round(lagSeconds * 10) / 10,
        })),
      };
    },
    check,
    async close() {
      clearInterval(timer);
      await checking;
      await Promise.all(members.map((m) => m.db.close()));
    },
  };
}
