// tier: slow (over 10 s of tests)
/**
 * Property: whatever is thrown at any route — random JSON or bytes, text with U+0000 or lone
 * surrogates, emoji and combining marks (long runs too), valid signature requests with template payloads
 * in their vars (their mails rendered), content types, query strings, path parameters and credentials —
 * the answer is never a 5xx, and every error has the one error shape with a code of the catalogue.
 *
 * The routes come from the OpenAPI document, so a new route module is fuzzed without a line here
 * (the probe module below proves it), and every route must have been reached by the requests sent.
 */
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import type { RouteModule } from '../../../src/http/app.js';
import { STATUS_OF } from '../../../src/http/error-codes.js';
import { basic, recordingJobs, testApp, testConfig, testDeps } from '../../support/fixtures.js';
import {
  countRouteHits,
  fuzzRequest,
  jsonObjectBody,
  openApiRoutes,
  routeKey,
  signatureRequestBody,
} from '../../support/fuzz.js';
import { storeKinds } from '../../support/stores.js';
import { MAIL } from '../../support/workflow-mail.js';

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 40);

/** A route module the fuzz knows nothing about: it must be found through the OpenAPI document. */
const probeRoutes: RouteModule = (app) => {
  app.post(
    '/fuzz-probe/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String() }),
        body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
      },
    },
    async (req) => ({ id: req.params.id, name: req.body.name }),
  );
};

const [embedded] = await storeKinds();
const s = await embedded!.open();
// Jobs recorded, not run: a created request queues its mails' delivery in its transaction.
const store = s.withJobs(() => recordingJobs());
const app = await testApp(store, {
  config: testConfig({ RATE_LIMIT_AUTH_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' }),
  routes: [probeRoutes],
  // With mail settings, a request created by the fuzz renders its mails (subjects cut, templates run).
  deps: { mail: MAIL, transparency: { origin: 'fuzz.test/log' } },
});
const hits = countRouteHits(app);
const account = await createAccount(testDeps(s.store), { email: 'fuzz@example.com', password: 'fuzzing password' });
const token = (await createApiToken(testDeps(s.store), { accountId: account.id })).token;
const credentials = { token, email: 'fuzz@example.com', password: 'fuzzing password' };
const routes = openApiRoutes((await app.inject('/v1/openapi.json')).json());

/** Never a 5xx; an error is the one shape, with a catalogued code and its status. */
function assertAnswer(res: { statusCode: number; body: string }, what: string): void {
  assert.ok(res.statusCode < 500, `${what} → ${res.statusCode} ${res.body}`);
  if (res.statusCode < 400) return;
  const err = JSON.parse(res.body) as { statusCode: number; code: keyof typeof STATUS_OF; error: string };
  assert.equal(STATUS_OF[err.code], res.statusCode, `${what} → ${res.body}: code not in the catalogue`);
  assert.equal(err.statusCode, res.statusCode, what);
  assert.equal(typeof err.error, 'string', what);
}

/**
 * Each route's runs start from a seed of their own, the same on every run (CI reads the same answer twice), and
 * FUZZ_SEED moves every route to other inputs (`FUZZ_SEED=7 npm test -- test/platform/http/fuzz.test.ts`).
 */
function seedOf(route: { method: string; url: string }): number {
  const key = `${process.env.FUZZ_SEED ?? ''} ${route.method} ${route.url}`;
  return createHash('sha256').update(key).digest().readInt32BE(0);
}

describe('no route answers 5xx to random input', () => {
  after(async () => {
    await app.close();
    await s.destroy();
  });

  it('finds the routes to fuzz in the OpenAPI document, a new route module included', () => {
    assert.ok(routes.length >= 10, `only ${routes.length} routes`);
    assert.ok(routes.some((r) => r.url === '/v1/fuzz-probe/{id}' && r.method === 'POST'));
  });

  for (const route of routes) {
    it(`${route.method} ${route.url}: random requests get no 5xx, and all reach the route`, async (t) => {
      const before = hits.get(routeKey(route.method, route.url)) ?? 0;
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fuzzRequest(route, credentials), async (r) => {
          sent += 1;
          const res = await app.inject({ ...r, method: r.method as 'GET' });
          assertAnswer(res, `${r.method} ${r.url}`);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: seedOf(route) },
      );
      const reached = (hits.get(routeKey(route.method, route.url)) ?? 0) - before;
      assert.equal(sent, RUNS_PER_ROUTE, 'every run sent a request');
      assert.ok(reached >= sent / 2, `only ${reached} of ${sent} requests reached ${route.method} ${route.url}`);
      t.diagnostic(`${sent} requests sent, ${reached} reached the route (seed ${seedOf(route)})`);
    });
  }

  it('valid credentials with random JSON bodies get no 5xx either, on every write route', async () => {
    const writes = routes.filter((r) => ['POST', 'PUT'].includes(r.method));
    assert.ok(writes.length >= 4, `only ${writes.length} write routes`);
    for (const route of writes) {
      const url = route.url.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const before = hits.get(routeKey(route.method, route.url)) ?? 0;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
            jsonObjectBody,
            signatureRequestBody,
          ),
          async (v) => {
            const res = await app.inject({
              method: route.method as 'POST',
              url,
              headers: {
                authorization: basic('fuzz@example.com', 'fuzzing password'),
                'content-type': 'application/json',
              },
              payload: v,
            });
            assertAnswer(res, `${route.method} ${url}`);
          },
        ),
        { numRuns: RUNS_PER_ROUTE, seed: seedOf(route) },
      );
      const reached = (hits.get(routeKey(route.method, route.url)) ?? 0) - before;
      assert.equal(reached, RUNS_PER_ROUTE, `${route.method} ${url}: ${reached} of ${RUNS_PER_ROUTE} reached it`);
    }
  });
});
