// tier: slow
/**
 * PgBouncer 1.18 (Debian's) in transaction mode keeps no prepared statement: a statement prepared on one
 * server connection is unknown on the next. With DATABASE_PREPARED_STATEMENTS=false the service sends every
 * statement unnamed, and runs whole through it: `proofseal start --role api` and `--role worker`, the
 * operator commands, the job queue (pg-boss: batch, broadcast, confirmation) and the receipts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startReplicaCluster, type ReplicaCluster } from '../../support/replica-cluster.js';
import { startRoleSplit, type RoleSplitRun } from '../../support/role-split-run.js';
import { waitUntil } from '../../support/wait.js';

describe('behind PgBouncer in transaction mode, without named prepared statements', () => {
  let cluster: ReplicaCluster;
  let run: RoleSplitRun;

  before(async () => {
    cluster = await startReplicaCluster({ poolMode: 'transaction' });
    run = await startRoleSplit({
      extra: { DATABASE_URL: cluster.poolerUrl, DATABASE_PREPARED_STATEMENTS: 'false' },
    });
  });

  after(async () => {
    await run?.close();
    await cluster?.close();
  });

  it('anchors are taken, batched, sent and confirmed by the job queue, and their receipts served', async () => {
    const headers = { authorization: `Bearer ${run.token}`, 'content-type': 'application/json' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${run.apiUrl}/v1/anchor`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `pooled ${i}`, hash: randomBytes(32).toString('hex') }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const id of ids)
      await waitUntil(
        async () => (await fetch(`${run.apiUrl}/v1/receipt/${id}`)).status === 200,
        `the receipt of ${id}`,
        60_000,
        500,
      );
    const confirmedBatches = async () =>
      (
        await cluster.query<{ n: number }>('primary', `SELECT count(*)::int AS n FROM batch WHERE status = 'CONFIRMED'`)
      )[0]!.n;
    await waitUntil(
      async () => (await confirmedBatches()) > 0,
      'a batch confirmed by the confirmation job',
      60_000,
      500,
    );
    const list = await fetch(`${run.apiUrl}/v1/anchors`, { headers });
    assert.equal(list.status, 200);
    assert.equal(((await list.json()) as { totalElements: number }).totalElements, ids.length);
  });
});
