import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BatchingHealth } from '../../app/anchoring/get-batching-health.js';

/** Each check resolves when its part answers and throws otherwise. */
export type Readiness = Record<string, () => Promise<void>>;

const Status = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
  oldestWaitingAnchorAgeSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  lastBatchClosedAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
});

/**
 * `/health`: the process is alive. `/ready`: every part it depends on answers (503 otherwise), and how
 * batching goes (age of the oldest waiting anchor, last batch closed) so a monitor can alert on a stall;
 * those two are left out when the store cannot be read.
 */
export function healthRoutes(
  app: FastifyInstance,
  readiness: Readiness,
  batching: () => Promise<BatchingHealth>,
): void {
  app.get('/health', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get(
    '/ready',
    { schema: { tags: ['operations'], response: { 200: Status, 503: Status } } },
    async (_req, reply) => {
      const entries = await Promise.all(
        Object.entries(readiness).map(async ([name, check]) => {
          try {
            await withTimeout(check(), 3000);
            return [name, 'ok'] as const;
          } catch {
            return [name, 'unavailable'] as const;
          }
        }),
      );
      const ok = entries.every(([, s]) => s === 'ok');
      const health = await withTimeout(batching(), 3000).catch(() => null);
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ready' : 'not ready',
        checks: Object.fromEntries(entries),
        ...(health && {
          oldestWaitingAnchorAgeSeconds: health.oldestWaitingAnchorAgeSeconds,
          lastBatchClosedAt:
            health.lastBatchClosedAt === null ? null : new Date(health.lastBatchClosedAt).toISOString(),
        }),
      });
    },
  );
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
