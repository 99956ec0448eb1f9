// tier: slow
/**
 * The README's "Running on PostgreSQL and with several processes" with a replica and a pooler, on the real
 * engines: `proofseal start --role api` and `--role worker` (its embedded regtest node) on PgBouncer (session mode, Debian's 1.18) in front
 * of a PostgreSQL 15 primary, the api reading from a streaming replica (DATABASE_REPLICA_URLS). The replica is
 * made to lag (`pg_wal_replay_pause()`), stopped, and promoted when the primary stops for good.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startReplicaCluster, type ReplicaCluster } from '../../support/replica-cluster.js';
import { startRoleSplit, type RoleSplitRun } from '../../support/role-split-run.js';
import { waitUntil } from '../../support/wait.js';

interface Replicas {
  inUse: string | null;
  primaryReachable: boolean;
  replicas: { name: string; state: string; lagSeconds: number | null }[];
}

const MAX_LAG_SECONDS = 10;

describe('a primary, a streaming replica and PgBouncer in front', () => {
  let cluster: ReplicaCluster;
  let run: RoleSplitRun;
  let auth: Record<string, string>;
  /** Anchors acknowledged (200) by the api, by id. */
  const acknowledged: string[] = [];

  const api = (path: string, init: RequestInit = {}) => fetch(`${run.apiUrl}${path}`, init);
  const ready = async () => {
    const res = await api('/ready');
    const body = (await res.json()) as { details?: { replicas?: Replicas } };
    return { status: res.status, replicas: body.details!.replicas! };
  };
  const anchor = async (): Promise<Response> =>
    api('/v1/anchor', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'replicas', hash: randomBytes(32).toString('hex') }),
    });
  const newAnchor = async (): Promise<string> => {
    const res = await anchor();
    assert.equal(res.status, 200, await res.clone().text());
    const { id } = (await res.json()) as { id: string };
    acknowledged.push(id);
    return id;
  };
  const receipt = (id: string) => api(`/v1/receipt/${id}`);
  /** The anchor's batch is settled (read on the primary itself: the api keeps settled receipts in memory once asked). */
  const settled = async (id: string) => {
    const rows = await cluster.query<{ settled: boolean }>(
      'primary',
      `SELECT b.settled FROM anchor a JOIN batch b ON a.seq BETWEEN b.first_seq AND b.last_seq WHERE a.id = $1`,
      [id],
    );
    return rows[0]?.settled === true;
  };
  const replayPaused = (paused: boolean) =>
    cluster.query('replica', paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()');

  before(async () => {
    cluster = await startReplicaCluster();
    run = await startRoleSplit({
      extra: {
        DATABASE_URL: cluster.poolerUrl,
        DATABASE_REPLICA_URLS: cluster.replicaUrl,
        DATABASE_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
        REORG_WATCH_DEPTH: '6',
      },
    });
    auth = { authorization: `Bearer ${run.token}` };
    await waitUntil(async () => (await ready()).replicas.inUse === cluster.replicaName, 'the replica in use', 60_000);
  });

  after(async () => {
    await run?.close();
    await cluster?.close();
  });

  it('a receipt asked right after its anchor is answered, and its state only moves forward, while the replica lags', async () => {
    await replayPaused(true);
    const id = await newAnchor();
    const first = await receipt(id);
    assert.equal(first.status, 202, 'WAIT: the signature part, not a 404 from the replica that lacks the anchor');
    await waitUntil(async () => (await receipt(id)).status === 200, 'the receipt to be complete', 30_000, 250);
    const [held] = await cluster.query<{ n: number }>(
      'replica',
      'SELECT count(*)::int AS n FROM anchor WHERE id = $1',
      [id],
    );
    assert.equal(held!.n, 0, 'the replica still lacks the anchor: the complete receipt came from the primary');
    const now = await ready();
    assert.ok(now.replicas.replicas[0]!.lagSeconds! > 0, JSON.stringify(now.replicas));
    await waitUntil(
      async () => (await ready()).replicas.replicas[0]!.state === 'lagging',
      `the replica skipped once ${MAX_LAG_SECONDS} s behind`,
      30_000,
      250,
    );
    const skipped = await ready();
    assert.equal(skipped.replicas.inUse, null, 'no fit replica: reads go to the primary');
    assert.equal((await receipt(id)).status, 200);
    await replayPaused(false);
    await waitUntil(async () => (await ready()).replicas.inUse === cluster.replicaName, 'the replica in use again');
  });

  it('a replica that goes down is skipped, and used again once back', async () => {
    const id = await newAnchor();
    await cluster.stopReplica();
    await waitUntil(async () => (await ready()).replicas.replicas[0]!.state === 'down', 'the replica seen down');
    assert.equal((await ready()).replicas.inUse, null);
    await waitUntil(async () => (await receipt(id)).status === 200, 'the receipt, from the primary', 30_000, 250);
    await cluster.startReplica();
    await waitUntil(async () => (await ready()).replicas.inUse === cluster.replicaName, 'the replica back', 30_000);
  });

  it('the primary stops: settled receipts still answered from the replica, writes 503 with Retry-After; it comes back: all resumes', async () => {
    const ids = [await newAnchor(), await newAnchor(), await newAnchor()];
    for (const id of ids) await waitUntil(() => settled(id), `anchor ${id} settled`, 60_000, 500);
    await cluster.caughtUp();
    await waitUntil(async () => (await ready()).replicas.inUse === cluster.replicaName, 'the replica in use');
    await cluster.stopPrimary('fast');
    for (const id of ids) {
      const res = await receipt(id);
      assert.equal(res.status, 200, `the settled receipt of ${id}, first asked with the primary away`);
      assert.match(res.headers.get('cache-control') ?? '', /immutable/);
    }
    const refused = await anchor();
    assert.equal(refused.status, 503, await refused.clone().text());
    assert.equal(((await refused.json()) as { code: string }).code, 'STORE_UNAVAILABLE');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    // The replica set samples the primary every second: /ready says it is away from the first sample after the stop.
    let down = await ready();
    await waitUntil(
      async () => (down = await ready()).replicas.primaryReachable === false,
      '/ready to say the primary is away',
      15_000,
      250,
    );
    assert.equal(down.status, 503, 'not ready without its primary');
    assert.equal(down.replicas.inUse, cluster.replicaName);

    await cluster.startPrimary();
    let back = '';
    await waitUntil(
      async () => {
        const res = await anchor();
        if (res.status !== 200) return false;
        back = ((await res.json()) as { id: string }).id;
        return true;
      },
      'writes accepted again, without a restart',
      60_000,
      500,
    );
    acknowledged.push(back);
    await waitUntil(
      async () => (await receipt(back)).status === 200,
      'the jobs to run again: batched and sent',
      60_000,
      500,
    );
  });

  it('the replica is promoted and the pooler pointed at it: nothing acknowledged is lost, no batch sent twice', async () => {
    const last = [await newAnchor(), await newAnchor()];
    // A switchover's first step (docs/replicas.md): the replica connected and caught up. Just after the primary's
    // restart above, its WAL receiver may not have reconnected yet (it retries every 5 s), and a primary that
    // stops ships its last WAL only to the standbys connected at that moment.
    await cluster.caughtUp();
    await cluster.stopPrimary('fast');
    await cluster.promoteReplica();
    const res = await waitUntilAccepted();
    acknowledged.push(res);
    for (const id of acknowledged) {
      const view = await api(`/v1/anchor/${id}`, { headers: auth });
      assert.equal(view.status, 200, `acknowledged anchor ${id} kept`);
    }
    for (const id of [...last, res])
      await waitUntil(async () => (await receipt(id)).status === 200, `the receipt of ${id}`, 60_000, 500);
    const twice = await cluster.query(
      'replica',
      `SELECT tx_id FROM batch WHERE tx_id IS NOT NULL GROUP BY tx_id HAVING count(*) > 1`,
    );
    assert.deepEqual(twice, [], 'one transaction a batch');
    const roots = await cluster.query(
      'replica',
      `SELECT root FROM batch WHERE status IN ('SENT', 'CONFIRMED') GROUP BY root HAVING count(*) > 1`,
    );
    assert.deepEqual(roots, [], 'no batch root written twice');
    const promoted = await ready();
    assert.equal(promoted.replicas.replicas[0]!.state, 'not a replica', 'the promoted server is the primary now');
    assert.equal(promoted.replicas.inUse, null);
  });

  async function waitUntilAccepted(): Promise<string> {
    let id = '';
    await waitUntil(
      async () => {
        const res = await anchor();
        if (res.status !== 200) return false;
        id = ((await res.json()) as { id: string }).id;
        return true;
      },
      'writes accepted by the promoted replica',
      60_000,
      500,
    );
    return id;
  }
});
