// tier: slow (over 10 s of tests)
/**
 * Random bodies, queries and ids — text with U+0000 and lone surrogates included — thrown at the anchor
 * and receipt routes: never a 5xx, and every route was reached by the requests sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { anyText, countRouteHits, encodeAnyText, malformedText, rawEncoded } from '../../support/fuzz.js';
import { newSigner, signatureBody } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const signer = newSigner();

const hex = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: min, maxLength: max });
const value = fc.oneof(
  anyText(),
  fc.array(malformedText, { minLength: 1, maxLength: 2 }),
  fc.dictionary(malformedText, fc.string(), { minKeys: 1, maxKeys: 2 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  hex(64, 64),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.object())),
);
const anchorKeys = [
  'name',
  'signedHash',
  'signature',
  'pubKey',
  'identityURL',
  'signedIdentity',
  'signedIssuerDomain',
  'hash',
  'public',
  'tags',
  'metadata',
  'callbackURL',
];
const body = fc.oneof(
  fc.anything(),
  fc.dictionary(fc.constantFrom(...anchorKeys, 'x'), value),
  fc
    .record({ base: fc.constant(null), patch: fc.dictionary(fc.constantFrom(...anchorKeys), value) })
    .map(({ patch }) => ({ ...signatureBody(signer), ...patch })),
);
const receiptKeys = ['@context', 'type', 'targetHash', 'merkleRoot', 'proof', 'anchors', 'signature'];
const receipt = fc.oneof(
  fc.anything(),
  fc.dictionary(
    fc.constantFrom(...receiptKeys),
    fc.oneof(value, fc.array(fc.dictionary(fc.constantFrom('left', 'right', 'type', 'sourceId'), value))),
  ),
);
const text = fc.oneof(anyText(), fc.uuid(), hex(0, 70), fc.constantFrom('../..', "' OR 1=1 --"));
const query = fc.dictionary(
  fc.constantFrom('page', 'size', 'name', 'hash', 'signedHash', 'tags', 'sort', 'direction', 'x'),
  text,
);

for (const kind of kinds) {
  describe(`anchor routes never answer 5xx to bad input on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let auth: { authorization: string };
    let hits: Map<string, number>;
    before(async () => {
      s = await kind.open();
      app = await testApp(s.store, {
        deps: { httpClient: createSafeFetch({ allowPrivateUrls: false }) },
        config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' }),
      });
      hits = countRouteHits(app);
      const deps = testDeps(s.store);
      const account = await createAccount(deps, { email: 'fuzz@example.com', password: 'correct horse battery' });
      auth = { authorization: `Bearer ${(await createApiToken(deps, { accountId: account.id })).token}` };
    });
    after(async () => {
      for (const route of [
        'POST /v1/anchor',
        'PUT /v1/anchor/{id}',
        'POST /v1/receipt/verify',
        'GET /v1/anchors',
        'GET /v1/anchorids',
        'GET /v1/receipt/{id}',
        'GET /v1/anchor/{id}',
      ])
        assert.ok((hits.get(route) ?? 0) >= 100, `${route} reached ${hits.get(route) ?? 0} times`);
      await app?.close();
      await s?.destroy();
    });

    const no5xx = (res: { statusCode: number; body: string }) =>
      assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`);

    it('POST /v1/anchor and PUT /v1/anchor/{id}', async () => {
      const { id } = (
        await app.inject({ method: 'POST', url: '/v1/anchor', headers: auth, payload: signatureBody(signer) })
      ).json();
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const payload = JSON.stringify(b) ?? 'null';
          const headers = { ...auth, 'content-type': 'application/json' };
          no5xx(await app.inject({ method: 'POST', url: '/v1/anchor', headers, payload }));
          no5xx(await app.inject({ method: 'PUT', url: `/v1/anchor/${id}`, headers, payload }));
        }),
        { numRuns: 150 },
      );
    });

    it('POST /v1/receipt/verify', async () => {
      await fc.assert(
        fc.asyncProperty(receipt, async (r) => {
          no5xx(
            await app.inject({
              method: 'POST',
              url: '/v1/receipt/verify',
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify(r) ?? 'null',
            }),
          );
        }),
        { numRuns: 150 },
      );
    });

    it('GET lists, ids and receipts with random queries and ids', async () => {
      await fc.assert(
        fc.asyncProperty(query, text, rawEncoded, async (q, id, raw) => {
          const qs = `${new URLSearchParams(q).toString()}&${raw}`;
          no5xx(await app.inject({ method: 'GET', url: `/v1/anchors?${qs}`, headers: auth }));
          no5xx(await app.inject({ method: 'GET', url: `/v1/anchorids?${qs}` }));
          no5xx(await app.inject({ method: 'GET', url: `/v1/receipt/${encodeAnyText(id)}` }));
          no5xx(await app.inject({ method: 'GET', url: `/v1/anchor/${encodeAnyText(id)}`, headers: auth }));
        }),
        { numRuns: 150 },
      );
    });
  });
}
