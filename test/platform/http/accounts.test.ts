// tier: slow (over 10 s of tests)
/** Accounts, authentication and the API conventions, through inject on both stores. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { hashApiToken } from '../../../src/core/crypto/password.js';
import type { RouteModule } from '../../../src/http/app.js';
import { basic, testApp, testClock, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const PASSWORD = 'correct horse battery';

for (const kind of kinds) {
  describe(`accounts and API conventions on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    before(async () => {
      s = await kind.open();
      app = await testApp(s.store, {
        config: testConfig({ RATE_LIMIT_AUTH_PER_MINUTE: '5', BODY_LIMIT_BYTES: '2048' }),
        // Failed logins are counted in fixed one-minute windows: a still clock keeps the test inside one.
        deps: { clock: testClock(Date.now()) },
      });
      const deps = testDeps(s.store);
      await createAccount(deps, { email: 'alice@example.com', password: PASSWORD });
      await createAccount(deps, { email: 'bob@example.com', password: PASSWORD });
    });
    after(async () => {
      await app?.close();
      await s?.destroy();
    });

    it('stores passwords with scrypt, never in clear', async () => {
      const a = await s.store.accounts.findByEmail('alice@example.com');
      assert.match(a!.passwordHash, /^scrypt\$32768\$8\$1\$/);
      assert.ok(!a!.passwordHash.includes(PASSWORD));
    });

    it('Basic auth creates a token; the token is stored hashed and works as Bearer', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/token?name=ci',
        headers: { authorization: basic('alice@example.com', PASSWORD) },
      });
      assert.equal(res.statusCode, 200);
      const { token, name } = res.json() as { token: string; name: string };
      assert.match(token, /^ps_[A-Za-z0-9_-]{43}$/);
      assert.equal(name, 'ci');
      const rows = await s.db.query<{ token_hash: string }>('SELECT token_hash FROM api_token');
      assert.ok(rows.every((r) => r.token_hash !== token));
      assert.ok(rows.some((r) => r.token_hash === hashApiToken(token)));
      const list = await app.inject({
        method: 'GET',
        url: '/v1/tokens',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(list.statusCode, 200);
      assert.ok((list.json() as { name: string }[]).some((t) => t.name === 'ci'));
      assert.ok(!list.body.includes(token), 'listing never shows the secret');
    });

    it('DELETE /v1/token revokes; the revoked token is refused with 401', async () => {
      const alice = (await s.store.accounts.findByEmail('alice@example.com'))!;
      const { token } = await createApiToken(testDeps(s.store), { accountId: alice.id });
      const auth = { authorization: `Bearer ${token}` };
      const del = await app.inject({ method: 'DELETE', url: `/v1/token?token=${token}`, headers: auth });
      assert.equal(del.statusCode, 204);
      const again = await app.inject({ method: 'GET', url: '/v1/tokens', headers: auth });
      assert.equal(again.statusCode, 401);
      assert.equal(again.json().code, 'UNAUTHORIZED');
    });

    it("one account cannot revoke another account's token (404)", async () => {
      const alice = (await s.store.accounts.findByEmail('alice@example.com'))!;
      const { token } = await createApiToken(testDeps(s.store), { accountId: alice.id });
      const res = await app.inject({
        method: 'DELETE',
        url: `/v1/token?token=${token}`,
        headers: { authorization: basic('bob@example.com', PASSWORD) },
      });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'NOT_FOUND');
      const still = await app.inject({
        method: 'GET',
        url: '/v1/tokens',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(still.statusCode, 200);
    });

    it('no credentials → 401 with WWW-Authenticate and the error shape', async () => {
      const res = await app.inject({ method: 'GET', url: '/v1/tokens' });
      assert.equal(res.statusCode, 401);
      assert.match(String(res.headers['www-authenticate']), /Basic/);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode']);
      assert.ok(res.headers['x-request-id']);
    });

    it('unknown route → 404 NOT_FOUND; a given request id is echoed', async () => {
      const res = await app.inject({ method: 'GET', url: '/v1/nothing', headers: { 'x-request-id': 'abc-123' } });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'NOT_FOUND');
      assert.equal(res.headers['x-request-id'], 'abc-123');
    });

    it('bad input: unknown query field, missing query field → 400 VALIDATION_FAILED', async () => {
      const auth = { authorization: basic('alice@example.com', PASSWORD) };
      const unknown = await app.inject({ method: 'GET', url: '/v1/token?nam=x', headers: auth });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().code, 'VALIDATION_FAILED');
      const missing = await app.inject({ method: 'DELETE', url: '/v1/token', headers: auth });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().code, 'VALIDATION_FAILED');
    });

    it('bad credentials are rate limited per client: 401s, then 429 with Retry-After', async () => {
      const wrong = { authorization: basic('carol@example.com', 'wrong password!') };
      const codes: number[] = [];
      for (let i = 0; i < 7; i++)
        codes.push(
          (await app.inject({ method: 'GET', url: '/v1/tokens', headers: wrong, remoteAddress: '203.0.113.9' }))
            .statusCode,
        );
      assert.deepEqual(codes.slice(0, 5), [401, 401, 401, 401, 401]);
      const last = await app.inject({ method: 'GET', url: '/v1/tokens', headers: wrong, remoteAddress: '203.0.113.9' });
      assert.equal(last.statusCode, 429);
      assert.equal(last.json().code, 'RATE_LIMITED');
      assert.ok(Number(last.headers['retry-after']) > 0);
      const other = await app.inject({
        method: 'GET',
        url: '/v1/tokens',
        headers: { authorization: basic('alice@example.com', PASSWORD) },
        remoteAddress: '203.0.113.10',
      });
      assert.equal(other.statusCode, 200, 'another client is not affected');
    });

    it('bodies: malformed JSON, wrong types, unknown fields, oversized, wrong media type → clear 4xx', async () => {
      const headers = { authorization: basic('bob@example.com', PASSWORD), 'content-type': 'application/json' };
      const put = (payload: string, h: Record<string, string> = headers) =>
        app.inject({ method: 'PUT', url: '/v1/user', headers: h, payload });
      const cases: [string, number, string][] = [
        ['{"firstName": "Bo', 400, 'INVALID_JSON'],
        ['', 400, 'INVALID_JSON'],
        ['{"firstName": 42}', 400, 'VALIDATION_FAILED'],
        ['{"firstName": "Bo", "admin": true}', 400, 'VALIDATION_FAILED'],
        ['"just a string"', 400, 'VALIDATION_FAILED'],
        [JSON.stringify({ firstName: 'x'.repeat(4000) }), 413, 'PAYLOAD_TOO_LARGE'],
      ];
      for (const [payload, status, code] of cases) {
        const res = await put(payload);
        assert.equal(res.statusCode, status, `${payload.slice(0, 30)} → ${res.body}`);
        assert.equal(res.json().code, code);
      }
      const xml = await put('<a/>', { ...headers, 'content-type': 'application/xml' });
      assert.equal(xml.statusCode, 415);
      assert.equal(xml.json().code, 'UNSUPPORTED_MEDIA_TYPE');
      const bob = await s.store.accounts.findByEmail('bob@example.com');
      assert.equal(bob!.firstName, '', 'nothing was written by the refused bodies');
    });

    it('PUT /v1/user changes names; a password change needs the current password', async () => {
      const auth = { authorization: basic('bob@example.com', PASSWORD) };
      const ok = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: auth,
        payload: { firstName: 'Bob', lastName: 'Builder' },
      });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().firstName, 'Bob');
      assert.ok(!('passwordHash' in ok.json()));
      const wrong = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: auth,
        payload: { password: { current: 'nope nope nope', next: 'another long one' } },
      });
      assert.equal(wrong.statusCode, 403);
      const changed = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: auth,
        payload: { password: { current: PASSWORD, next: 'another long one' } },
      });
      assert.equal(changed.statusCode, 200);
      const bob = await s.store.accounts.findByEmail('bob@example.com');
      const fresh = await (
        await import('../../../src/core/crypto/password.js')
      ).verifyPassword('another long one', bob!.passwordHash);
      assert.equal(fresh, true);
    });

    it('health and readiness', async () => {
      assert.equal((await app.inject('/health')).statusCode, 200);
      const ready = await app.inject('/ready');
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().checks.store, 'ok');
    });

    it('serves an OpenAPI 3 document listing every /v1 route with its responses, and a docs page', async () => {
      const res = await app.inject('/v1/openapi.json');
      assert.equal(res.statusCode, 200);
      const doc = res.json() as {
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      assert.match(doc.openapi, /^3\./);
      assert.ok(doc.paths['/v1/token']?.get?.responses['200']);
      assert.ok(doc.paths['/v1/token']?.delete?.responses['404']);
      const docs = await app.inject('/v1/docs/');
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /swagger/i);
    });
  });
}

describe('strict body validation holds in every plugin scope', () => {
  it('a route module that adds a shared schema still refuses wrong types and unknown fields', async () => {
    const [embedded] = kinds;
    const s = await embedded!.open();
    const { Type } = await import('@sinclair/typebox');
    const probe: RouteModule = (v1) => {
      v1.addSchema(Type.Object({ n: Type.Integer() }, { $id: 'ProbeShared' }));
      v1.post(
        '/probe',
        {
          schema: {
            body: Type.Object(
              { n: Type.Integer(), shared: Type.Optional(Type.Ref('ProbeShared')) },
              { additionalProperties: false },
            ),
          },
        },
        async (req) => req.body,
      );
    };
    const app = await testApp(s.store, { routes: [probe] });
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/v1/probe', headers: { 'content-type': 'application/json' }, payload });
    assert.equal((await post('{"n": 1, "shared": {"n": 2}}')).statusCode, 200);
    for (const bad of ['{"n": "1"}', '{"n": 1, "x": 0}', '{"n": 1, "shared": {"n": "2"}}']) {
      const res = await post(bad);
      assert.equal(res.statusCode, 400, `${bad} → ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    await app.close();
    await s.destroy();
  });
});

describe('readiness reports a failing part', () => {
  it('answers 503 when a check fails', async () => {
    const [embedded] = kinds;
    const s = await embedded!.open();
    const deps = testDeps(s.store);
    const { buildApp } = await import('../../../src/http/app.js');
    const app = await buildApp(
      { ...deps, readiness: { store: () => s.store.ping(), chain: () => Promise.reject(new Error('down')) } },
      testConfig(),
    );
    const res = await app.inject('/ready');
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().checks.chain, 'unavailable');
    await app.close();
    await s.destroy();
  });
});
