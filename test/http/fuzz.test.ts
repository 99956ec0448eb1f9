/**
 * Property: whatever is thrown at any route — random JSON or bytes, content types, query strings, path
 * parameters and credentials — the answer is never a 5xx, and every error has the one error shape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../src/app/accounts/create-account.js';
import { createApiToken } from '../../src/app/accounts/manage-api-tokens.js';
import { basic, testApp, testConfig, testDeps } from '../support/fixtures.js';
import { storeKinds, type TestStore } from '../support/stores.js';

const [embedded] = await storeKinds();
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

interface RouteInfo {
  method: string;
  url: string;
}

describe('no route answers 5xx to random input', () => {
  let s: TestStore;
  let app: FastifyInstance;
  const routes: RouteInfo[] = [];
  let token = '';

  before(async () => {
    s = await embedded!.open();
    app = await testApp(s.store, {
      config: testConfig({ RATE_LIMIT_AUTH_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' }),
    });
    const account = await createAccount(testDeps(s.store), { email: 'fuzz@example.com', password: 'fuzzing password' });
    token = (await createApiToken(testDeps(s.store), { accountId: account.id })).token;
    const doc = (await app.inject('/v1/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) routes.push({ method: method.toUpperCase(), url: path });
    }
  });
  after(async () => {
    await app?.close();
    await s?.destroy();
  });

  it('finds the routes to fuzz in the OpenAPI document', () => {
    assert.ok(routes.length >= 5, `only ${routes.length} routes`);
  });

  it('random requests get no 5xx', async () => {
    const segment = fc.oneof(
      fc.uuid(),
      fc.string({ maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .dictionary(
          fc.constantFrom(
            'name',
            'hash',
            'signedHash',
            'signature',
            'pubKey',
            'identityURL',
            'public',
            'tags',
            'metadata',
            'firstName',
            'password',
            'signeeId',
            'state',
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constant(''),
    );
    const auth = fc.constantFrom<string | undefined>(
      undefined,
      'bearer',
      'Basic Zm9vOmJhcg==',
      'Bearer nope',
      'Basic !!!',
      'Digest x',
    );
    const query = fc.dictionary(
      fc.constantFrom('hash', 'signedHash', 'page', 'size', 'token', 'name', 'signeeId', 'sort', 'direction', 'tags'),
      fc.string({ maxLength: 70 }),
      { maxKeys: 3 },
    );
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/octet-stream',
      'application/json; charset=utf-8',
      undefined,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        segment,
        body,
        auth,
        query,
        contentType,
        async (route, seg, payload, a, q, ct) => {
          const url =
            route.url.replace(/\{[^}]+\}/g, encodeURIComponent(seg)) + '?' + new URLSearchParams(q).toString();
          const headers: Record<string, string> = {};
          if (a === 'bearer') headers.authorization = `Bearer ${token}`;
          else if (a) headers.authorization = a;
          if (ct) headers['content-type'] = ct;
          const withBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
          const res = await app.inject({
            method: route.method as 'GET',
            url,
            headers,
            payload: withBody ? payload : undefined,
          });
          assert.ok(res.statusCode < 500, `${route.method} ${url} → ${res.statusCode} ${res.body}`);
          if (res.statusCode >= 400) assert.match(res.json().code, /^[A-Z][A-Z_]+$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('valid credentials with random bodies get no 5xx either', async () => {
    const writes = routes.filter((r) => ['POST', 'PUT'].includes(r.method));
    if (writes.length === 0) return;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.jsonValue({ maxDepth: 3 }), async (route, value) => {
        const url = route.url.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await app.inject({
          method: route.method as 'POST',
          url,
          headers: { authorization: basic('fuzz@example.com', 'fuzzing password') },
          payload: JSON.stringify(value) as unknown as object,
        });
        assert.ok(res.statusCode < 500, `${route.method} ${url} → ${res.statusCode} ${res.body}`);
      }),
      { numRuns: RUNS },
    );
  });
});
