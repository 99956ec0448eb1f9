import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/** Each check resolves when its part answers and throws otherwise. */
export type Readiness = Record<string, () => Promise<void>>;

const Status = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

/** `/health`: the process is alive. `/ready`: every part it depends on answers (503 otherwise). */
export function healthRoutes(app: FastifyInstance, readiness: Readiness): void {
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
      return reply
        .status(ok ? 200 : 503)
        .send({ status: ok ? 'ready' : 'not ready', checks: Object.fromEntries(entries) });
    },
  );
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
