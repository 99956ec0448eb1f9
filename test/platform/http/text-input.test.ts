// tier: slow (over 10 s of tests)
/**
 * Text the stores cannot hold — U+0000 and lone UTF-16 surrogates — is refused at the edge with 400
 * INVALID_STRING wherever it enters (body, query, path, Basic credentials), on both stores; and a body
 * that is not JSON is 415, as docs/errors.md says.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { findMalformedText } from '../../../src/http/validation.js';
import { basic, realRandom, testApp, testClock, testConfig, testDeps } from '../../support/fixtures.js';
import { newSigner, randomHash, signatureBody } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const NUL = 'a\u0000b';
const LONE_HIGH = 'a\ud800b';
const LONE_LOW = '\udc00';
const BAD_TEXTS = [NUL, LONE_HIGH, LONE_LOW];
const ABSENT_ID = '00000000-0000-4000-8000-000000000000';

for (const kind of kinds) {
  describe(`malformed text is refused at the edge on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let auth: { authorization: string };
    let anchorId = '';
    const signer = newSigner();

    before(async () => {
      s = await kind.open();
      app = await testApp(s.store, {
        deps: { httpClient: createSafeFetch({ allowPrivateUrls: false }) },
        config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000', RATE_LIMIT_AUTH_PER_MINUTE: '100000' }),
      });
      const deps = testDeps(s.store);
      const account = await createAccount(deps, { email: 'text@example.com', password: 'correct horse battery' });
      auth = { authorization: `Bearer ${(await createApiToken(deps, { accountId: account.id })).token}` };
      const created = await app.inject({ method: 'POST', url: '/v1/anchor', headers: auth, payload: { ...data() } });
      assert.equal(created.statusCode, 200, created.body);
      anchorId = created.json().id;
    });
    after(async () => {
      await app?.close();
      await s?.destroy();
    });

    const data = () => ({ name: 'doc', hash: randomHash() });
    const send = (method: 'POST' | 'PUT', url: string, body: unknown) =>
      app.inject({
        method,
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const refused = (res: { statusCode: number; body: string; json(): { code: string } }, what: string) => {
      assert.equal(res.statusCode, 400, `${what} → ${res.statusCode} ${res.body}`);
      assert.equal(res.json().code, 'INVALID_STRING', what);
    };

    it('in anchor bodies: name, tags, metadata (values and keys), URLs, signature fields', async () => {
      for (const bad of BAD_TEXTS) {
        const bodies: Record<string, unknown>[] = [
          { ...data(), name: bad },
          { ...data(), tags: ['ok', bad] },
          { ...data(), metadata: { k: bad } },
          { ...data(), metadata: { [bad]: 1 } },
          { ...data(), callbackURL: `https://example.com/${bad}` },
          { ...signatureBody(signer), identityURL: `https://id.example.com/${bad}` },
          { ...signatureBody(signer), signedIdentity: `CN=${bad}` },
        ];
        for (const body of bodies) refused(await send('POST', '/v1/anchor', body), `POST ${JSON.stringify(body)}`);
        for (const body of [{ name: bad }, { tags: [bad] }, { metadata: { k: bad } }, { callbackURL: bad }]) {
          refused(await send('PUT', `/v1/anchor/${anchorId}`, body), `PUT ${JSON.stringify(body)}`);
          refused(await send('PUT', `/v1/anchor/${ABSENT_ID}`, body), `PUT absent ${JSON.stringify(body)}`);
        }
      }
    });

    it('in the receipt to verify and the user update', async () => {
      refused(await send('POST', '/v1/receipt/verify', { '@context': NUL, targetHash: LONE_HIGH }), 'verify');
      for (const bad of BAD_TEXTS) {
        refused(await send('PUT', '/v1/user', { firstName: bad }), 'firstName');
        refused(await send('PUT', '/v1/user', { lastName: bad }), 'lastName');
        refused(
          await send('PUT', '/v1/user', { password: { current: bad, next: 'a long enough password' } }),
          'password',
        );
      }
    });

    it('in query strings and path parameters', async () => {
      for (const url of [
        '/v1/anchors?name=a%00b',
        '/v1/anchors?tags=x%00',
        '/v1/anchors?tags=ok&tags=%00',
        '/v1/token?name=%00',
        '/v1/token?name=a%00b',
        `/v1/anchor/${ABSENT_ID}%00`,
        '/v1/anchor/%00',
      ]) {
        refused(await app.inject({ method: 'GET', url, headers: auth }), url);
      }
      refused(await app.inject({ method: 'DELETE', url: '/v1/token?token=%00', headers: auth }), 'DELETE token');
      for (const url of ['/v1/receipt/%00', '/v1/receipt/a%00/ots', `/v1/anchorids?hash=%00`]) {
        refused(await app.inject({ method: 'GET', url }), url);
      }
    });

    it('in Basic credentials', async () => {
      for (const login of ['text@example.com\u0000', '\u0000']) {
        const res = await app.inject({
          method: 'GET',
          url: '/v1/user',
          headers: { authorization: basic(login, 'correct horse battery') },
        });
        refused(res, `Basic ${JSON.stringify(login)}`);
      }
    });

    it('walks deeply nested bodies without overflowing, and answers bad URL bytes in the one error shape', async () => {
      const deep = '['.repeat(50_000) + '"\\u0000"' + ']'.repeat(50_000);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/receipt/verify',
        headers: { 'content-type': 'application/json' },
        payload: deep,
      });
      refused(res, 'deep body');
      for (const url of ['/v1/anchor/%ED%A0%80', '/v1/receipt/%FF', '/v1/receipt/%']) {
        const bad = await app.inject({ method: 'GET', url, headers: auth });
        assert.equal(bad.statusCode, 400, `${url} → ${bad.body}`);
        assert.deepEqual(Object.keys(bad.json()).sort(), ['code', 'error', 'message', 'statusCode']);
        assert.equal(bad.json().code, 'BAD_REQUEST');
        assert.match(String(bad.headers['x-request-id']), /^[0-9a-f-]{36}$/, `${url}: the request id`);
      }
      const refusedText = await app.inject({ method: 'GET', url: '/v1/tokens', headers: { 'x-test': 'a\u0000b' } });
      assert.equal(refusedText.statusCode, 400);
      assert.ok(refusedText.headers['x-request-id'], 'a request refused by the first hooks carries its id');
    });

    it('leaves well-formed text alone, astral characters (surrogate pairs) included', async () => {
      const res = await send('POST', '/v1/anchor', {
        ...data(),
        name: 'Ünïcode 😀 名前',
        tags: ['😀'],
        metadata: { '😀': 'ok 😀' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().name, 'Ünïcode 😀 名前');
      const list = await app.inject({
        method: 'GET',
        url: `/v1/anchors?name=${encodeURIComponent('Ünïcode 😀 名前')}`,
        headers: auth,
      });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(list.json().totalElements, 1);
    });

    it('answers 415 to a text/plain body, as docs/errors.md says', async () => {
      for (const url of ['/v1/anchor', '/v1/receipt/verify']) {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { ...auth, 'content-type': 'text/plain' },
          payload: JSON.stringify(data()),
        });
        assert.equal(res.statusCode, 415, `${url} → ${res.body}`);
        assert.equal(res.json().code, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });
  });
}

describe('the identity server refuses malformed text too', () => {
  it('in /sign and /identity queries, with or without a token', async () => {
    const opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    const deps = {
      store: opened.store,
      clock: testClock(Date.now()),
      random: realRandom,
      identity: { secretKey: 'k'.repeat(40), publicUrl: 'https://id.example.com' },
    };
    const app = await buildIdentityApp(deps, testConfig());
    const { token } = await createIdentityToken(deps, { name: 'text' });
    try {
      const hash = randomHash();
      for (const [url, headers] of [
        [`/sign?hashToSign=${hash}&identityToSign=CN%00`, { authorization: `Bearer ${token}` }],
        [`/sign?hashToSign=${hash}&pubKey=%00`, { authorization: `Bearer ${token}` }],
        ['/identity?leftData=a%00b', {}],
        ['/identity?pubKey=%00', {}],
      ] as const) {
        const res = await app.inject({ method: 'GET', url, headers });
        assert.equal(res.statusCode, 400, `${url} → ${res.body}`);
        assert.equal(res.json().code, 'INVALID_STRING');
      }
    } finally {
      await app.close();
      await opened.close();
    }
  });
});

describe('the text guard walks parsed JSON only', () => {
  it('finds malformed text in plain objects and arrays, and never walks a stream or a class instance', () => {
    assert.equal(findMalformedText({ a: [{ b: 'x\u0000' }] }, 'body'), 'body.a[0].b');
    assert.equal(findMalformedText(Object.assign(Object.create(null), { k: '\uD800' }), 'body'), 'body.k');
    // A request stream handed over as the body: a graph of sockets and buffers, not text a client wrote.
    const stream = new PassThrough();
    (stream as unknown as { note: string }).note = 'x\u0000';
    assert.equal(findMalformedText(stream, 'body'), undefined);
    assert.equal(findMalformedText(Buffer.from([0]), 'body'), undefined);
  });
});
