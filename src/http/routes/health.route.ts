import { Type } from '@sinclair/typebox';
import { getBatchingHealth } from '../../app/anchoring/get-batching-health.js';
import type { ChainPort } from '../../app/anchoring/chain.port.js';
import { findUnkeptTransactions } from '../../app/anchoring/find-unkept-transactions.js';
import type { Store } from '../../app/shared/store.port.js';
import type { CheckReport, RouteModule } from '../route-module.js';

export type { CheckReport, Readiness } from '../route-module.js';

type CheckOutcome = readonly [
  name: string,
  status: 'ok' | 'not ready' | 'unavailable',
  details?: Record<string, unknown>,
];

const Status = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
  details: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
  oldestWaitingAnchorAgeSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  lastBatchClosedAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
});

/**
 * The chain check: the node answers, and holds (mempool or chain) a transaction of every SENT batch.
 * `details.height` is the node's tip; `details.unkeptTransactions` lists the txids of batches whose
 * transactions it holds nowhere.
 */
export function chainReadiness(deps: { readonly store: Store; readonly chain: ChainPort }): () => Promise<CheckReport> {
  return async () => {
    const height = await deps.chain.getBlockCount();
    const unkeptTransactions = await findUnkeptTransactions(deps);
    return { ready: unkeptTransactions.length === 0, details: { height, unkeptTransactions } };
  };
}

/**
 * The read replicas: which one reads go to (`inUse`, null: the primary) and each one's state and lag in
 * seconds. Always ready: without a fit replica the primary answers the reads.
 */
export function replicaReadiness(report: () => object): () => Promise<CheckReport> {
  return async () => ({ ready: true, details: { ...report() } });
}

/**
 * `/health`: the process is alive. `/ready`: every part it depends on (`deps.readiness`) answers and is fit (503
 * otherwise), and how batching goes (age of the oldest waiting anchor, last batch closed) so a monitor can alert
 * on a stall; those two are left out when the store cannot be read. Registered on the root scope.
 */
export const healthRoutes: RouteModule = (app, deps) => {
  const { readiness } = deps;
  app.get('/health', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get(
    '/ready',
    { schema: { tags: ['operations'], response: { 200: Status, 503: Status } } },
    async (_req, reply) => {
      const outcomes = await Promise.all(Object.entries(readiness).map(([name, check]) => runCheck(name, check)));
      const ok = outcomes.every(([, s]) => s === 'ok');
      const details = Object.fromEntries(outcomes.flatMap(([name, , d]) => (d ? [[name, d] as const] : [])));
      const health = await withTimeout(getBatchingHealth(deps), 3000).catch(() => null);
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ready' : 'not ready',
        checks: Object.fromEntries(outcomes.map(([name, s]) => [name, s])),
        ...(Object.keys(details).length > 0 && { details }),
        ...(health && {
          oldestWaitingAnchorAgeSeconds: health.oldestWaitingAnchorAgeSeconds,
          lastBatchClosedAt:
            health.lastBatchClosedAt === null ? null : new Date(health.lastBatchClosedAt).toISOString(),
        }),
      });
    },
  );
};

async function runCheck(name: string, check: () => Promise<void | CheckReport>): Promise<CheckOutcome> {
  try {
    const report = await withTimeout(check(), 3000);
    if (!report) return [name, 'ok'];
    return [name, report.ready ? 'ok' : 'not ready', report.details];
  } catch {
    return [name, 'unavailable'];
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
