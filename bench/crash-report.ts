/**
 * What the crash-cycle tool reads before it drops its schema, so that a slow drain is told apart from a
 * lost anchor: where every acknowledged anchor that is not in a CONFIRMED batch is (no row, waiting in no
 * batch, or in a batch of some status with its transactions as the store and the node see them), the
 * wallet's coins and the batching jobs; and, during the drain, a timeline of batches closed, sent and
 * confirmed.
 */
import type { ChainPort } from '../src/app/anchoring/chain.port.js';
import type { Sql } from '../src/adapters/store/sql.js';
import { CLOSE_BATCH, CONFIRM_BATCHES, SEND_BATCHES } from '../src/app/anchoring/anchoring-deps.js';

export interface ReportSources {
  readonly db: Sql;
  readonly chain: Pick<ChainPort, 'locateTransaction' | 'getRawTransaction'>;
  /** The schema of the store (pg-boss lives in `<schema>_pgboss`). */
  readonly schema: string;
}

/** Acknowledged anchors not in a CONFIRMED batch, counted by place: one row per (place, batch). */
interface PlaceRow {
  place: 'no row' | 'in no batch' | 'in a batch';
  batch_id: string | null;
  n: number;
}

async function placesOf(db: Sql, acknowledged: readonly string[]): Promise<PlaceRow[]> {
  return db.query<PlaceRow>(
    `SELECT CASE WHEN a.id IS NULL THEN 'no row' WHEN ab.batch_id IS NULL THEN 'in no batch' ELSE 'in a batch' END AS place,
            ab.batch_id::text AS batch_id, count(*)::int AS n
     FROM unnest($1::uuid[]) AS ack(id)
     LEFT JOIN anchor a ON a.id = ack.id
     LEFT JOIN anchor_batch ab ON ab.anchor_id = a.id
     LEFT JOIN batch b ON b.id = ab.batch_id
     WHERE b.status IS DISTINCT FROM 'CONFIRMED'
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [acknowledged],
  );
}

interface BatchRow {
  id: string;
  status: string;
  created: string;
  last_modified: string;
  confirmations: number;
  block_height: number | null;
  first_seq: string | null;
  last_seq: string | null;
}

interface TxRow {
  txid: string;
  status: string;
  fee_rate: number;
  broadcast_height: number | null;
  created: string;
}

const at = (ms: string | number) => new Date(Number(ms)).toISOString().slice(11, 19);

/** "BROADCAST (node: mempool), REPLACED (node: none)…" — the store's status and where the node holds it. */
async function txStates(s: ReportSources, batchId: string): Promise<string> {
  const txs = await s.db.query<TxRow>(
    `SELECT txid, status, fee_rate_sat_vb AS fee_rate, broadcast_height, created FROM btc_tx WHERE batch_id = $1 ORDER BY created`,
    [batchId],
  );
  if (txs.length === 0) return 'no transaction';
  const parts: string[] = [];
  for (const t of txs) {
    const place = await s.chain.locateTransaction(t.txid, 0).catch((e: unknown) => `error ${String(e)}`);
    const conf = place === 'chain' ? ` ${(await s.chain.getRawTransaction(t.txid))?.confirmations ?? '?'} conf` : '';
    parts.push(
      `${t.txid.slice(0, 12)} ${t.status} ${t.fee_rate.toFixed(1)} sat/vB signed ${at(t.created)}` +
        ` broadcast at height ${t.broadcast_height ?? '—'} (node: ${place ?? 'unknown to it'}${conf})`,
    );
  }
  return parts.join('; ');
}

/** One line per batch holding unconfirmed acknowledged anchors. */
async function describeBatch(s: ReportSources, id: string, anchors: number): Promise<string> {
  const [b] = await s.db.query<BatchRow>(
    `SELECT id::text, status, created, last_modified, confirmations, block_height, first_seq, last_seq FROM batch WHERE id = $1`,
    [id],
  );
  if (!b) return `    batch ${id}: vanished`;
  return (
    `    batch ${id.slice(0, 8)} ${b.status}, ${anchors} of them (seq ${b.first_seq ?? '—'}–${b.last_seq ?? '—'}), closed ${at(b.created)},` +
    ` last change ${at(b.last_modified)}, ${b.confirmations} conf at height ${b.block_height ?? '—'}; tx: ${await txStates(s, id)}`
  );
}

/** The wallet's coins by status: "available 2 (…sat), reserved 1 (…sat)". */
async function coins(s: ReportSources): Promise<string> {
  const rows = await s.db.query<{ status: string; n: number; sat: string }>(
    `SELECT status, count(*)::int AS n, sum(value_sat)::text AS sat FROM utxo GROUP BY status ORDER BY status`,
  );
  return rows.map((c) => `${c.status} ${c.n} (${c.sat} sat)`).join(', ') || 'none';
}

/** The three batching queues' jobs by state; active ones with the age of the oldest. */
async function batchingJobs(s: ReportSources): Promise<string> {
  const rows = await s.db.query<{ name: string; state: string; n: number; oldest_s: number | null }>(
    `SELECT name, state::text, count(*)::int AS n, max(extract(epoch FROM now() - started_on))::int AS oldest_s
     FROM ${s.schema}_pgboss.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active')
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [[CLOSE_BATCH, SEND_BATCHES, CONFIRM_BATCHES]],
  );
  const job = (j: (typeof rows)[number]) =>
    `${j.name} ${j.state}${j.n > 1 ? ` ×${j.n}` : ''}${j.state === 'active' ? ` ${j.oldest_s} s` : ''}`;
  return rows.map(job).join(', ') || 'none queued or active';
}

/**
 * Lines saying where every acknowledged anchor not in a CONFIRMED batch is, grouped: no row in the store,
 * waiting in no batch, or per batch with its status and transactions; then the wallet and the jobs.
 */
export async function unconfirmedReport(s: ReportSources, acknowledged: readonly string[]): Promise<string[]> {
  const rows = await placesOf(s.db, acknowledged);
  const lines = [`  acknowledged anchors not in a CONFIRMED batch: ${rows.reduce((n, r) => n + r.n, 0)}`];
  const count = (place: PlaceRow['place']) => rows.filter((r) => r.place === place).reduce((n, r) => n + r.n, 0);
  lines.push(`    no row in the store: ${count('no row')}`);
  lines.push(`    WAIT, in no batch yet: ${count('in no batch')}`);
  const inBatches = rows.filter((r) => r.place === 'in a batch');
  lines.push(`    in ${inBatches.length} unconfirmed batch(es): ${count('in a batch')}`);
  for (const r of inBatches) lines.push(await describeBatch(s, r.batch_id!, r.n));
  return [...lines, `  wallet coins: ${await coins(s)}`, `  batching jobs: ${await batchingJobs(s)}`];
}

/** A batch as the drain watch sees it. */
interface Seen {
  status: string;
  txId: string | null;
  confirmations: number;
}

export interface DrainWatch {
  /** Reads the batches and prints what changed since the last look (closed, sent, re-sent, confirmed). */
  look(): Promise<void>;
  /** The events seen, one line each, from the start of the drain. */
  readonly events: string[];
}

/**
 * Watches the batches during the drain. The first look prints the batches not yet CONFIRMED; every later
 * look prints, with the seconds since the drain began, each batch closed, sent (or given a new
 * transaction), confirmed, or put back to WAIT.
 */
export function watchDrain(db: Sql, t0: number): DrainWatch {
  const seen = new Map<string, Seen>();
  const events: string[] = [];
  let first = true;
  const note = (line: string) => {
    events.push(line);
    console.log(`  drain ${line}`);
  };
  return {
    events,
    async look() {
      const rows = await db.query<{
        id: string;
        status: string;
        tx_id: string | null;
        confirmations: number;
        n: string;
      }>(
        `SELECT id::text, status, tx_id, confirmations, (COALESCE(last_seq - first_seq + 1, leaf_count / 2))::text AS n
         FROM batch WHERE leaf_count > 0`,
      );
      const t = `+${((Date.now() - t0) / 1000).toFixed(0)} s`;
      for (const r of rows) {
        const before = seen.get(r.id);
        const name = `batch ${r.id.slice(0, 8)} (${r.n} seqs)`;
        if (first) {
          if (r.status !== 'CONFIRMED')
            note(`${t}: ${name} ${r.status} at the start, tx ${r.tx_id?.slice(0, 12) ?? '—'}`);
        } else if (!before) note(`${t}: ${name} closed, ${r.status}`);
        else if (before.status !== r.status)
          note(`${t}: ${name} ${before.status} → ${r.status}, tx ${r.tx_id?.slice(0, 12) ?? '—'}`);
        else if (before.txId !== r.tx_id) note(`${t}: ${name} new transaction ${r.tx_id?.slice(0, 12) ?? '—'}`);
        else if (before.confirmations === 0 && r.confirmations > 0) note(`${t}: ${name} in a block`);
        seen.set(r.id, { status: r.status, txId: r.tx_id, confirmations: r.confirmations });
      }
      first = false;
    },
  };
}

/** One line of the drain's state: batches by status, anchors in no batch, coins and batching jobs. */
export async function drainStatus(s: ReportSources, unconfirmed: number): Promise<string> {
  const [row] = await s.db.query<{ by_status: string | null; unbatched: number }>(
    `SELECT (SELECT string_agg(status || ' ' || n, ', ' ORDER BY status)
             FROM (SELECT status, count(*) AS n FROM batch WHERE leaf_count > 0 GROUP BY status) c) AS by_status,
            (SELECT count(*)::int FROM anchor WHERE batch_id IS NULL
               AND seq > (SELECT COALESCE(max(last_seq), 0) FROM batch)) AS unbatched`,
  );
  return (
    `acknowledged not confirmed ${unconfirmed}; batches ${row?.by_status ?? 'none'}; anchors in no batch ` +
    `${row?.unbatched ?? 0}; coins ${await coins(s)}; jobs ${await batchingJobs(s)}`
  );
}
