import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../src/app/shared/deps.js';
import type { Clock, Random } from '../../src/app/shared/clock.port.js';
import type { JobQueue } from '../../src/app/shared/jobs.port.js';
import type { Store } from '../../src/app/shared/store.port.js';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp, type RouteModule } from '../../src/http/app.js';
import type { WebAssets } from '../../src/http/routes/web/web.route.js';

export const silentLog = pino({ level: 'silent' });

/** A clock tests can move. */
export function testClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export const realRandom: Random = { bytes: (n) => randomBytes(n), uuid: () => randomUUID() };

/** A job queue that records what was sent. */
export function recordingJobs(): JobQueue & { sent: { name: string; data: object }[] } {
  const sent: { name: string; data: object }[] = [];
  return {
    sent,
    send: async (name, data) => {
      sent.push({ name, data });
      return randomUUID();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/proofseal-test-unused', ...overrides });
}

/** A SECRET_KEY for tests (the runtime always has one: configured or generated). */
export const TEST_SECRET_KEY = 'test-secret-key-of-at-least-32-characters';

export function testDeps(store: Store, overrides: Partial<AppDeps> = {}): AppDeps {
  return {
    store,
    clock: { now: () => Date.now() },
    random: realRandom,
    jobs: recordingJobs(),
    secretKey: TEST_SECRET_KEY,
    ...overrides,
  };
}

export async function testApp(
  store: Store,
  opts: { config?: Config; deps?: Partial<AppDeps>; routes?: RouteModule[]; webAssets?: WebAssets } = {},
): Promise<FastifyInstance> {
  const deps = testDeps(store, opts.deps);
  const readiness = { store: () => store.ping() };
  return buildApp({ ...deps, readiness }, opts.config ?? testConfig(), opts.routes, {
    webAssets: opts.webAssets ?? null,
  });
}

export function basic(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
}
