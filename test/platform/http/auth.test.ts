// tier: slow (over 10 s of tests)
/**
 * Authentication and its limits through inject, on both stores: one limiter in the store shared by
 * processes, counted before the password check, keyed by client address and login; authentication before
 * validation on every protected route; strict Authorization parsing; an atomic PUT /v1/user; store
 * outages as 503; TRUST_PROXY.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { hashPassword, verifyPassword } from '../../../src/core/crypto/password.js';
import { basic, testApp, testClock, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const PASSWORD = 'correct horse battery';
const clock = testClock(Date.now());

/** A store whose account lookups (the first step of every password check) are counted. */
function countingLookups(store: Store): { store: Store; lookups: () => number } {
  let n = 0;
  const accounts = { ...store.accounts, findByEmail: (email: string) => (n++, store.accounts.findByEmail(email)) };
  return { store: { ...store, accounts }, lookups: () => n };
}

const getTokens = (app: FastifyInstance, authorization: string, remoteAddress = '198.51.100.1') =>
  app.inject({ method: 'GET', url: '/v1/tokens', headers: { authorization }, remoteAddress });

for (const kind of kinds) {
  describe(`authentication limits on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    const apps: FastifyInstance[] = [];
    const build = async (env: Record<string, string>, store?: Store) => {
      const app = await testApp(store ?? s.store, { config: testConfig(env), deps: { clock } });
      apps.push(app);
      return app;
    };
    before(async () => {
      s = await kind.open();
      const deps = testDeps(s.store);
      for (const email of ['alice@example.com', 'bob@example.com', 'dora@example.com'])
        await createAccount(deps, { email, password: PASSWORD });
    });
    after(async () => {
      for (const app of apps) await app.close();
      await s?.destroy();
    });

    it('two app instances on one store share the failed-login limit', async () => {
      const second =
        kind.name === 'postgres'
          ? await openStore({ databaseUrl: s.url, embeddedDir: undefined, now: Date.now, migrate: false })
          : undefined;
      try {
        const env = { RATE_LIMIT_AUTH_PER_MINUTE: '4' };
        const [a, b] = [await build(env), await build(env, second?.store)];
        const wrong = basic('alice@example.com', 'not the password');
        const codes: number[] = [];
        for (const app of [a, b, a, b, a, b]) codes.push((await getTokens(app, wrong, '198.51.100.2')).statusCode);
        assert.deepEqual(codes, [401, 401, 401, 401, 429, 429]);
      } finally {
        await second?.close();
      }
    });

    it('100 concurrent wrong passwords with a limit of 30: 30 reach the password check, 70 get 429 with Retry-After', async () => {
      const counted = countingLookups(s.store);
      const app = await build({ RATE_LIMIT_AUTH_PER_MINUTE: '30' }, counted.store);
      const guesses = Array.from({ length: 100 }, (_, i) => basic('bob@example.com', `wrong guess ${i}`));
      const answers = await Promise.all(guesses.map((guess) => getTokens(app, guess, '198.51.100.3')));
      const codes = answers.map((r) => r.statusCode);
      assert.equal(counted.lookups(), 30, 'password checks');
      assert.equal(codes.filter((c) => c === 401).length, 30);
      assert.equal(codes.filter((c) => c === 429).length, 70);
      for (const r of answers.filter((x) => x.statusCode === 429)) {
        assert.equal(r.json().code, 'RATE_LIMITED');
        assert.ok(Number(r.headers['retry-after']) >= 1);
      }
    });

    it('a burst of one client with the same good credentials on a cold cache is one check, not 429s', async () => {
      const counted = countingLookups(s.store);
      const app = await build(
        { RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE: '3' },
        counted.store,
      );
      const good = basic('dora@example.com', PASSWORD);
      const codes = (await Promise.all(Array.from({ length: 50 }, () => getTokens(app, good, '198.51.100.8')))).map(
        (r) => r.statusCode,
      );
      assert.deepEqual(new Set(codes), new Set([200]));
      assert.equal(counted.lookups(), 1);
    });

    it("one client's failures on one login do not lock out other logins behind the same address", async () => {
      const app = await build({ RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE: '100' });
      const ip = '198.51.100.4';
      for (let i = 0; i < 3; i++)
        assert.equal((await getTokens(app, basic('carol@example.com', 'x'), ip)).statusCode, 401);
      assert.equal((await getTokens(app, basic('carol@example.com', 'x'), ip)).statusCode, 429);
      assert.equal((await getTokens(app, basic('dora@example.com', PASSWORD), ip)).statusCode, 200);
      assert.equal((await getTokens(app, basic('erin@example.com', 'x'), ip)).statusCode, 401, 'not 429');
      assert.equal((await getTokens(app, basic('carol@example.com', 'x'), '198.51.100.5')).statusCode, 401);
    });

    it('a looser cap per client address holds whatever the logins', async () => {
      const app = await build({ RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE: '5' });
      const ip = '198.51.100.6';
      const codes: number[] = [];
      for (const who of ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'])
        codes.push((await getTokens(app, basic(`${who}@example.com`, 'x'), ip)).statusCode);
      assert.deepEqual(codes, [401, 401, 401, 401, 401, 429, 429]);
      assert.equal((await getTokens(app, basic('f8@example.com', 'x'), '198.51.100.7')).statusCode, 401);
    });

    it('wrong current passwords on PUT /v1/user are limited per account: 403s, then 429 with Retry-After', async () => {
      const app = await build({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
      const dora = (await s.store.accounts.findByEmail('dora@example.com'))!;
      const { token } = await createApiToken(testDeps(s.store), { accountId: dora.id });
      const put = (current: string) =>
        app.inject({
          method: 'PUT',
          url: '/v1/user',
          headers: { authorization: `Bearer ${token}` },
          payload: { password: { current, next: 'a brand new password' } },
        });
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await put(`guess number ${i}`)).statusCode);
      assert.deepEqual(codes, [403, 403, 403, 429]);
      const limited = await put(PASSWORD);
      assert.equal(limited.statusCode, 429, 'even the right one, until the window ends');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.ok(await verifyPassword(PASSWORD, (await s.store.accounts.findById(dora.id))!.passwordHash));
    });

    it('Authorization with trailing text, or a malformed one, is refused with 401', async () => {
      const app = await build({});
      const alice = (await s.store.accounts.findByEmail('alice@example.com'))!;
      const { token } = await createApiToken(testDeps(s.store), { accountId: alice.id });
      assert.equal((await getTokens(app, `Bearer ${token}`)).statusCode, 200);
      for (const header of [
        `Bearer ${token} junk`,
        `Bearer ${token},x`,
        `Bearer  `,
        `${basic('alice@example.com', PASSWORD)} junk`,
      ]) {
        const res = await getTokens(app, header);
        assert.equal(res.statusCode, 401, header);
        assert.equal(res.json().code, 'UNAUTHORIZED');
      }
      // A login holding U+0000 is refused at the edge, before authentication (issue 12): 400, not 401.
      const nul = await getTokens(app, `Basic ${Buffer.from('al\u0000ice@example.com:x').toString('base64')}`);
      assert.equal(nul.statusCode, 400);
      assert.equal(nul.json().code, 'INVALID_STRING');
    });

    it('PUT /v1/user is atomic: a bad name with a password change writes nothing, and answers 400', async () => {
      const app = await build({});
      const auth = { authorization: basic('alice@example.com', PASSWORD) };
      assert.equal((await app.inject({ method: 'GET', url: '/v1/user', headers: auth })).statusCode, 200);
      const res = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: auth,
        payload: { firstName: 'Al\u0007ice', password: { current: PASSWORD, next: 'a brand new password' } },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      const alice = (await s.store.accounts.findByEmail('alice@example.com'))!;
      assert.ok(await verifyPassword(PASSWORD, alice.passwordHash), 'the password did not change');
      assert.equal(alice.firstName, '');
      const lone = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: `{"lastName": "\\ud800x", "password": {"current": "${PASSWORD}", "next": "a brand new password"}}`,
      });
      assert.equal(lone.statusCode, 400);
    });

    it('a refused password change forgets remembered logins too', async () => {
      const app = await build({});
      const bob = (await s.store.accounts.findByEmail('bob@example.com'))!;
      const old = basic('bob@example.com', PASSWORD);
      assert.equal((await getTokens(app, old, '198.51.100.9')).statusCode, 200, 'now remembered');
      const elsewhere = await hashPassword('changed by another process', Buffer.alloc(16, 7));
      await s.store.accounts.setPassword(bob.id, elsewhere, Date.now());
      const refused = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: { authorization: old },
        remoteAddress: '198.51.100.9',
        payload: { password: { current: 'a wrong current one', next: 'a brand new password' } },
      });
      assert.equal(refused.statusCode, 403);
      assert.equal((await getTokens(app, old, '198.51.100.9')).statusCode, 401, 'the old password is forgotten');
      await s.store.accounts.setPassword(bob.id, bob.passwordHash, Date.now());
    });

    it('a password change forgets remembered logins at once', async () => {
      const app = await build({});
      const old = basic('alice@example.com', PASSWORD);
      assert.equal((await getTokens(app, old)).statusCode, 200, 'now remembered');
      const res = await app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: { authorization: old },
        payload: { password: { current: PASSWORD, next: 'a brand new password' } },
      });
      assert.equal(res.statusCode, 200);
      assert.equal((await getTokens(app, old)).statusCode, 401);
      assert.equal((await getTokens(app, basic('alice@example.com', 'a brand new password'))).statusCode, 200);
    });
  });
}

describe('authentication comes before validation', () => {
  let s: TestStore;
  let app: FastifyInstance;
  before(async () => {
    s = await kinds[0]!.open();
    app = await testApp(s.store, { config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) });
  });
  after(async () => {
    await app?.close();
    await s?.destroy();
  });

  it('every protected route of the OpenAPI document answers 401 to an empty or bad body without credentials', async () => {
    type Operation = { security?: Record<string, string[]>[] };
    const doc = (await app.inject('/v1/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> };
    const protectedOps = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        // Protected: a credential is required (an empty requirement `{}` marks a route that also serves anonymous
        // callers, such as a signer's GET with ?signeeId=).
        .filter(([, op]) => {
          const security = op.security ?? [];
          return (
            security.some((s) => 'basic' in s || 'bearer' in s) && !security.some((s) => Object.keys(s).length === 0)
          );
        })
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'not-an-id') })),
    );
    assert.ok(protectedOps.length >= 10, `found ${protectedOps.length}`);
    assert.ok(protectedOps.some((o) => o.method === 'POST' && o.path === '/v1/anchor'));
    for (const { method, path } of protectedOps) {
      for (const payload of ['', '{"x":', 'x'.repeat(300_000)]) {
        const res = await app.inject({
          method: method as 'GET',
          url: `${path}?unknown=1`,
          headers: { 'content-type': 'application/json' },
          ...(method === 'GET' ? {} : { payload }),
        });
        assert.equal(res.statusCode, 401, `${method} ${path} with ${payload.length} bytes → ${res.body}`);
        assert.equal(res.json().code, 'UNAUTHORIZED');
      }
    }
  });
});

describe('store outages', () => {
  it('answer 503 STORE_UNAVAILABLE with Retry-After, not 500, when PostgreSQL cannot be reached', async () => {
    const down = await openStore({
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
      embeddedDir: undefined,
      now: Date.now,
      migrate: false,
    });
    const app = await testApp(down.store);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/anchor',
        headers: { authorization: basic('alice@example.com', PASSWORD) },
        payload: { name: 'x', hash: 'a'.repeat(64) },
      });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'STORE_UNAVAILABLE');
      assert.match(String(res.headers['retry-after']), /^\d+$/);
    } finally {
      await app.close();
      await down.close();
    }
  });

  it('answer 503 STORE_UNAVAILABLE when the embedded store is closed', async () => {
    const s = await kinds[0]!.open();
    const app = await testApp(s.store);
    await s.close();
    try {
      const res = await getTokens(app, basic('alice@example.com', PASSWORD));
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'STORE_UNAVAILABLE');
    } finally {
      await app.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  let s: TestStore;
  before(async () => {
    s = await kinds[0]!.open();
  });
  after(async () => {
    await s?.destroy();
  });

  for (const trust of ['1', '127.0.0.1', '10.0.0.0/8,127.0.0.0/8']) {
    it(`TRUST_PROXY=${trust}: a client cannot escape the limit by choosing X-Forwarded-For`, async () => {
      const app = await testApp(s.store, {
        config: testConfig({ TRUST_PROXY: trust, RATE_LIMIT_AUTH_PER_MINUTE: '3' }),
        deps: { clock },
      });
      try {
        const codes: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await app.inject({
            method: 'GET',
            url: '/v1/tokens',
            headers: {
              authorization: basic('zed@example.com', 'x'),
              'x-forwarded-for': `10.9.9.${i}, 203.0.113.${trust.length}`,
            },
          });
          codes.push(res.statusCode);
        }
        assert.deepEqual(codes.slice(3), [429, 429]);
      } finally {
        await app.close();
      }
    });
  }

  it('takes false, a hop count or proxy addresses/CIDRs, and refuses true', () => {
    assert.equal(testConfig().trustProxy, false);
    assert.equal(testConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(testConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(testConfig({ TRUST_PROXY: '10.0.0.0/8, ::1,192.168.1.10' }).trustProxy, [
      '10.0.0.0/8',
      '::1',
      '192.168.1.10',
    ]);
    assert.deepEqual(testConfig({ TRUST_PROXY: 'fd00::/8,2001:db8::1' }).trustProxy, ['fd00::/8', '2001:db8::1']);
    for (const bad of ['true', 'yes', '10.0.0.0/33', '10.0.0.256', 'proxy.local', '10.0.0.1,', '::g', 'fd00::/129'])
      assert.throws(() => testConfig({ TRUST_PROXY: bad }), /TRUST_PROXY must be false, a hop count/, bad);
  });
});
