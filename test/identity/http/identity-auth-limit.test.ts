// tier: slow (measured: 12.3 s in a full CI run, over the 10 s bound of the fast tier)
/** The identity server counts failed token checks in the store, with the API's limiter, before the check. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { realRandom, testClock, testConfig } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const HASH = 'ab'.repeat(32);

for (const kind of kinds) {
  describe(`identity server failed-token limit on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    const apps: FastifyInstance[] = [];
    const clock = testClock(Date.now());
    const depsOn = (store: TestStore['store']): IdentityDeps => ({
      store,
      clock,
      random: realRandom,
      identity: { secretKey: 'k'.repeat(40), publicUrl: 'https://id.example.com' },
    });
    const build = async (store = s.store) => {
      const app = await buildIdentityApp(depsOn(store), testConfig({ RATE_LIMIT_AUTH_PER_MINUTE: '4' }));
      apps.push(app);
      return app;
    };
    const sign = (app: FastifyInstance, authorization: string, query = `hashToSign=${HASH}`, ip = '192.0.2.1') =>
      app.inject({ method: 'GET', url: `/sign?${query}`, headers: { authorization }, remoteAddress: ip });

    before(async () => {
      s = await kind.open();
    });
    after(async () => {
      for (const app of apps) await app.close();
      await s?.destroy();
    });

    it('two identity server instances on one store share the limit', async () => {
      const second =
        kind.name === 'postgres'
          ? await openStore({ databaseUrl: s.url, embeddedDir: undefined, now: Date.now, migrate: false })
          : undefined;
      try {
        const [a, b] = [await build(), await build(second?.store)];
        const codes: number[] = [];
        for (const app of [a, b, a, b, a, b]) codes.push((await sign(app, 'Bearer wrong-token')).statusCode);
        assert.deepEqual(codes, [401, 401, 401, 401, 429, 429]);
        const limited = await sign(b, 'Bearer wrong-token');
        assert.equal(limited.json().code, 'RATE_LIMITED');
        assert.ok(Number(limited.headers['retry-after']) >= 1);
      } finally {
        await second?.close();
      }
    });

    it('concurrent wrong tokens: only the limit reaches the check', async () => {
      const app = await build();
      const codes = (
        await Promise.all(Array.from({ length: 40 }, () => sign(app, 'Bearer wrong-token', undefined, '192.0.2.2')))
      ).map((r) => r.statusCode);
      assert.equal(codes.filter((c) => c === 401).length, 4);
      assert.equal(codes.filter((c) => c === 429).length, 36);
    });

    it('authenticates before the query is validated; a good token is not counted; trailing text is refused', async () => {
      const app = await build();
      assert.equal((await sign(app, '', 'unknownField=1', '192.0.2.3')).statusCode, 401);
      const { token } = await createIdentityToken(depsOn(s.store), { name: 'ok' });
      for (let i = 0; i < 6; i++)
        assert.equal((await sign(app, `Bearer ${token}`, 'unknownField=1', '192.0.2.4')).statusCode, 400);
      assert.equal((await sign(app, `Bearer ${token} junk`, undefined, '192.0.2.5')).statusCode, 401);
    });
  });
}
