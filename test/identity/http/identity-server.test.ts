import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import bitcoinMessage from 'bitcoinjs-message';
import type { FastifyInstance } from 'fastify';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import { createIdentityToken, revokeIdentityToken } from '../../../src/app/identity/create-identity-token.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { revokeIdentityKey } from '../../../src/app/identity/revoke-identity-key.js';
import { buildIdentityApp } from '../../../src/identity/app.js';
import { realRandom, testClock, testConfig } from '../../support/fixtures.js';

const SECRET = 'k'.repeat(40);
const PUBLIC_URL = 'https://id.acme.co.uk';
const HASH = createHash('sha256').update('a document').digest('hex');
const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Independent check: bitcoinjs-message, P2PKH addresses. */
function verifiesWithBitcoinjs(message: string, pubKey: string, signature: string): boolean {
  return bitcoinMessage.verify(message, pubKey, signature);
}

describe('identity server', () => {
  let opened: OpenedStore;
  let app: FastifyInstance;
  let deps: IdentityDeps;
  const clock = testClock(Date.now());
  let token: string;
  let janeKey: string;

  before(async () => {
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    deps = { store: opened.store, clock, random: realRandom, identity: { secretKey: SECRET, publicUrl: PUBLIC_URL } };
    app = await buildIdentityApp(
      deps,
      testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '50', IDENTITY_PUBLIC_URL: PUBLIC_URL }),
    );
    const key = await createIdentityKey(deps, {
      name: 'jane',
      expiration: clock.now() + 30 * 86_400_000,
      identity: { commonName: 'Jane Doe', organization: 'Acme, Inc.', country: 'fr', emailAddress: 'jane@acme.com' },
    });
    janeKey = key.pubKey;
    token = (await createIdentityToken(deps, { name: 'test' })).token;
  });
  after(async () => {
    await app.close();
    await opened.close();
  });

  const sign = (query: string, auth = `Bearer ${token}`) =>
    app.inject({ method: 'GET', url: `/sign?${query}`, headers: auth ? { authorization: auth } : {} });

  it('hands out P2PKH mainnet addresses and stores the secret key sealed', async () => {
    assert.match(janeKey, /^1[1-9A-HJ-NP-Za-km-z]{25,34}$/);
    const rows = await opened.db.query<{ private_key_sealed: string; public_key: string }>(
      'SELECT private_key_sealed, public_key FROM identity_key',
    );
    assert.match(rows[0]!.private_key_sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(rows[0]!.public_key, /^0[23][0-9a-f]{64}$/);
  });

  it('signs a hash: the signature verifies with bitcoinjs-message', async () => {
    const res = await sign(`hashToSign=${HASH}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['identityURL', 'pubKey', 'signature', 'signedHash']);
    assert.equal(body.signedHash, HASH);
    assert.equal(body.pubKey, janeKey);
    assert.equal(body.identityURL, `${PUBLIC_URL}/identity?pubKey=${janeKey}`);
    assert.ok(verifiesWithBitcoinjs(HASH, janeKey, body.signature));
  });

  it('identityToSign=ALL binds the X.500 identity (order CN,O,OU,L,C,EMAILADDRESS, escaped) and the issuer domain', async () => {
    const body = (await sign(`hashToSign=${HASH}&identityToSign=ALL`)).json();
    assert.equal(body.signedIdentity, 'CN=Jane Doe,O=Acme\\, Inc.,C=FR,EMAILADDRESS=jane@acme.com');
    assert.equal(body.signedIssuerDomain, 'acme.co.uk');
    const message = sha256Hex(HASH + body.signedIdentity + body.signedIssuerDomain);
    assert.ok(verifiesWithBitcoinjs(message, janeKey, body.signature));
    assert.ok(!verifiesWithBitcoinjs(HASH, janeKey, body.signature), 'the bare hash is not what was signed');
  });

  it('identityToSign as a list keeps the fixed order whatever the order asked', async () => {
    const body = (await sign(`hashToSign=${HASH}&identityToSign=EMAILADDRESS,CN`)).json();
    assert.equal(body.signedIdentity, 'CN=Jane Doe,EMAILADDRESS=jane@acme.com');
    assert.ok(
      verifiesWithBitcoinjs(sha256Hex(HASH + body.signedIdentity + body.signedIssuerDomain), janeKey, body.signature),
    );
  });

  it('refuses bad input with 4xx and the error shape', async () => {
    const cases: [string, number, string][] = [
      [`hashToSign=${HASH.toUpperCase()}`, 400, 'INVALID_HASH'],
      [`hashToSign=${HASH.slice(1)}`, 400, 'INVALID_HASH'],
      ['hashToSign=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 400, 'INVALID_HASH'],
      ['', 400, 'VALIDATION_FAILED'],
      [`hashToSign=${HASH}&identityToSign=CN,XX`, 400, 'VALIDATION_FAILED'],
      [`hashToSign=${HASH}&identityToSign=OU`, 400, 'VALIDATION_FAILED'],
      [`hashToSign=${HASH}&pubKey=1BoatSLRHtKNngkdXEeobR76b53LETtpyT`, 404, 'NOT_FOUND'],
    ];
    for (const [query, status, code] of cases) {
      const res = await sign(query);
      assert.equal(res.statusCode, status, `${query}: ${res.body}`);
      assert.equal(res.json().code, code, query);
      assert.equal(res.json().statusCode, status);
    }
  });

  it('needs a live identity token, stored only as its SHA-256', async () => {
    assert.equal((await sign(`hashToSign=${HASH}`, '')).statusCode, 401);
    assert.equal((await sign(`hashToSign=${HASH}`, 'Bearer ps_nope')).statusCode, 401);
    const rows = await opened.db.query<{ token_hash: string }>('SELECT token_hash FROM identity_token');
    assert.ok(rows.some((r) => r.token_hash === sha256Hex(token)));
    assert.ok(rows.every((r) => r.token_hash !== token));
    const other = await createIdentityToken(deps, {});
    assert.equal((await sign(`hashToSign=${HASH}`, `Bearer ${other.token}`)).statusCode, 200);
    await revokeIdentityToken(deps, { token: other.token });
    assert.equal((await sign(`hashToSign=${HASH}`, `Bearer ${other.token}`)).json().code, 'UNAUTHORIZED');
  });

  it('chooses the key by pubKey; a revoked or expired key never signs', async () => {
    const bob = await createIdentityKey(deps, { name: 'bob', identity: { commonName: 'Bob' } });
    const soon = await createIdentityKey(deps, {
      name: 'soon',
      identity: { commonName: 'Soon' },
      expiration: clock.now() + 1000,
    });
    const byBob = (await sign(`hashToSign=${HASH}&pubKey=${bob.pubKey}`)).json();
    assert.equal(byBob.pubKey, bob.pubKey);
    assert.ok(verifiesWithBitcoinjs(HASH, bob.pubKey, byBob.signature));
    await revokeIdentityKey(deps, { pubKey: bob.pubKey });
    const revoked = await sign(`hashToSign=${HASH}&pubKey=${bob.pubKey}`);
    assert.equal(revoked.statusCode, 403);
    assert.equal(revoked.json().code, 'KEY_REVOKED');
    clock.advance(2000);
    const expired = await sign(`hashToSign=${HASH}&pubKey=${soon.pubKey}`);
    assert.equal(expired.statusCode, 403);
    assert.equal(expired.json().code, 'KEY_EXPIRED');
    assert.equal((await sign(`hashToSign=${HASH}`)).json().pubKey, janeKey, 'the default key is the newest live one');
  });

  it('GET /identity proves the key: rightData starts with the identity URL, the signature covers leftData + rightData', async () => {
    const leftData = 'verifier-nonce-0123456789';
    const res = await app.inject({ method: 'GET', url: `/identity?pubKey=${janeKey}&leftData=${leftData}` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.identity, {
      commonName: 'Jane Doe',
      organization: 'Acme, Inc.',
      country: 'FR',
      emailAddress: 'jane@acme.com',
    });
    assert.equal(body.key.status, 'valid');
    assert.equal(body.key.pubKey, janeKey);
    assert.ok(body.rightData.startsWith(`${PUBLIC_URL}/identity?pubKey=${janeKey}.`));
    assert.match(body.rightData.split('.').at(-1), /^[0-9a-f]{32}$/);
    assert.ok(verifiesWithBitcoinjs(leftData + body.rightData, janeKey, body.signature));
    const plain = (await app.inject({ method: 'GET', url: `/identity?pubKey=${janeKey}` })).json();
    assert.equal(plain.rightData, undefined);
    assert.equal(plain.signature, undefined);
  });

  it('GET /identity: 404 for an unknown key, a revoked key reports its status and proves nothing', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/identity?pubKey=1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'NOT_FOUND');
    const gone = await createIdentityKey(deps, { name: 'gone', identity: { commonName: 'Gone' } });
    await revokeIdentityKey(deps, { pubKey: gone.pubKey });
    const body = (await app.inject({ method: 'GET', url: `/identity?pubKey=${gone.pubKey}&leftData=abc` })).json();
    assert.equal(body.key.status, 'revoked');
    assert.equal(typeof body.key.revokedAt, 'number');
    assert.equal(body.signature, undefined);
    const tooLong = await app.inject({
      method: 'GET',
      url: `/identity?pubKey=${janeKey}&leftData=${'x'.repeat(1025)}`,
    });
    assert.equal(tooLong.statusCode, 400);
  });

  it('a key sealed under another SECRET_KEY is a 500 that shows nothing, not a 401', async () => {
    const otherDeps = { ...deps, identity: { ...deps.identity, secretKey: 'z'.repeat(40) } };
    const other = await buildIdentityApp(otherDeps, testConfig());
    try {
      const res = await other.inject({
        method: 'GET',
        url: `/sign?hashToSign=${HASH}&pubKey=${janeKey}`,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.statusCode, 500);
      assert.equal(res.json().code, 'INTERNAL');
      assert.doesNotMatch(res.body, /SECRET_KEY/);
    } finally {
      await other.close();
    }
  });

  it('serves /health and an OpenAPI document with both routes', async () => {
    assert.equal((await app.inject({ method: 'GET', url: '/health' })).json().status, 'ok');
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.paths['/sign'] && doc.paths['/identity']);
  });

  it('rate limits the public /identity with 429 RATE_LIMITED', async () => {
    const limited = await buildIdentityApp(deps, testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '2' }));
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await limited.inject({ method: 'GET', url: `/identity?pubKey=${janeKey}` })).statusCode);
      assert.deepEqual(codes, [200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
