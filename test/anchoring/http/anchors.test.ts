// tier: slow (over 10 s of tests)
/** Anchors, anchor ids and receipts through inject, on both stores. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { signatureVerifyPool } from '../../../src/adapters/system/signature-verify-pool.js';
import { EMPTY_SHA256 } from '../../../src/core/hash/hash-check.js';
import { rootFromPath } from '../../../src/core/merkle/proof.js';
import { testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { insertBatch, newSigner, randomHash, signatureBody } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const PASSWORD = 'correct horse battery';
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

for (const kind of kinds) {
  describe(`anchors on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let alice: { authorization: string };
    let bob: { authorization: string };
    const signer = newSigner();

    const post = (body: unknown, auth = alice) =>
      app.inject({ method: 'POST', url: '/v1/anchor', headers: auth, payload: body as object });
    const get = (url: string, auth: Record<string, string> = alice) =>
      app.inject({ method: 'GET', url, headers: auth });

    before(async () => {
      s = await kind.open();
      const httpClient = createSafeFetch({ allowPrivateUrls: false });
      app = await testApp(s.store, {
        deps: { httpClient },
        config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }),
      });
      const deps = testDeps(s.store);
      const a = await createAccount(deps, { email: 'alice@example.com', password: PASSWORD });
      const b = await createAccount(deps, { email: 'bob@example.com', password: PASSWORD });
      alice = { authorization: `Bearer ${(await createApiToken(deps, { accountId: a.id })).token}` };
      bob = { authorization: `Bearer ${(await createApiToken(deps, { accountId: b.id })).token}` };
    });
    after(async () => {
      await app?.close();
      await s?.destroy();
    });

    it('creates a signature anchor in WAIT; it shows signedHash and, as hash, the SHA-256 of its signature', async () => {
      const body = signatureBody(signer, {
        identityURL: 'https://id.example.com/identity',
        tags: ['contract', 'q3'],
        metadata: { n: 1, k: 'v', b: true, z: null },
      });
      const anchored = sha256Hex(body.signature as string);
      const res = await post(body);
      assert.equal(res.statusCode, 200, res.body);
      const created = res.json();
      assert.equal(created.status, 'WAIT');
      assert.equal(created.signedHash, body.signedHash);
      assert.equal(created.hash, anchored);
      assert.equal(created.public, true);
      assert.deepEqual(created.tags, ['contract', 'q3']);
      const got = (await get(`/v1/anchor/${created.id}`)).json();
      assert.equal(got.signedHash, body.signedHash);
      assert.equal(got.hash, anchored);
      assert.deepEqual(got.metadata, { n: 1, k: 'v', b: true, z: null });
      assert.equal(got.identityURL, 'https://id.example.com/identity');
      assert.equal(got.status, 'WAIT');
      assert.equal(got.txId, undefined);
    });

    it('accepts a hex public key and the identity-bound message', async () => {
      const ident = { signedIdentity: 'CN=Jane Doe,EMAILADDRESS=jane@acme.com', signedIssuerDomain: 'acme.com' };
      const res = await post({ ...signatureBody(signer, ident), pubKey: signer.publicKeyHex });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().signedIdentity, ident.signedIdentity);
      // The same signature without the identity fields signs another message: refused.
      const bare = signatureBody(signer, ident);
      delete bare.signedIdentity;
      delete bare.signedIssuerDomain;
      const bad = await post(bare);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'INVALID_SIGNATURE');
    });

    it('creates a data anchor from a hash', async () => {
      const hash = randomHash();
      const res = await post({ name: 'data', hash, public: false });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().hash, hash);
      assert.equal(res.json().public, false);
    });

    const refusals: [string, () => Record<string, unknown>, string][] = [
      [
        'a signature by another key',
        () => ({ ...signatureBody(signer), pubKey: newSigner().address }),
        'INVALID_SIGNATURE',
      ],
      [
        'a signature that is not base64 of 65 bytes',
        () => ({ ...signatureBody(signer), signature: 'AAAA' }),
        'INVALID_SIGNATURE',
      ],
      ['a pubKey that is no address', () => ({ ...signatureBody(signer), pubKey: 'nope' }), 'INVALID_PUBKEY'],
      ['the hash of empty data', () => ({ name: 'x', hash: EMPTY_SHA256 }), 'INVALID_HASH'],
      ['an upper-case hash', () => ({ name: 'x', hash: randomHash().toUpperCase() }), 'INVALID_HASH'],
      [
        'an upper-case signedHash',
        () => ({ ...signatureBody(signer), signedHash: randomHash().toUpperCase() }),
        'INVALID_HASH',
      ],
      [
        'hash and signature fields together',
        () => ({ ...signatureBody(signer), hash: randomHash() }),
        'VALIDATION_FAILED',
      ],
      ['neither hash nor signature', () => ({ name: 'x' }), 'VALIDATION_FAILED'],
      ['no name', () => ({ hash: randomHash() }), 'VALIDATION_FAILED'],
      ['a tag with a space', () => ({ name: 'x', hash: randomHash(), tags: ['a b'] }), 'VALIDATION_FAILED'],
      ['nested metadata', () => ({ name: 'x', hash: randomHash(), metadata: { a: { b: 1 } } }), 'VALIDATION_FAILED'],
      ['an unknown field', () => ({ name: 'x', hash: randomHash(), status: 'SENT' }), 'VALIDATION_FAILED'],
      [
        'a callbackURL on a private address',
        () => ({ name: 'x', hash: randomHash(), callbackURL: 'http://10.0.0.1/hook' }),
        'FORBIDDEN_URL',
      ],
      [
        'a callbackURL on loopback IPv6',
        () => ({ name: 'x', hash: randomHash(), callbackURL: 'http://[::1]:8080/hook' }),
        'FORBIDDEN_URL',
      ],
      [
        'a callbackURL that is not http',
        () => ({ name: 'x', hash: randomHash(), callbackURL: 'file:///etc/passwd' }),
        'INVALID_URL',
      ],
      ['an identityURL that is no URL', () => ({ ...signatureBody(signer), identityURL: 'not a url' }), 'INVALID_URL'],
    ];
    for (const [what, body, code] of refusals) {
      it(`refuses ${what} (400 ${code})`, async () => {
        const res = await post(body());
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, code);
      });
    }

    it('needs credentials (401)', async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/anchor', payload: { name: 'x', hash: randomHash() } });
      assert.equal(res.statusCode, 401);
    });

    it('PUT changes only name, public, tags, metadata, callbackURL', async () => {
      const { id } = (await post({ name: 'before', hash: randomHash(), metadata: { a: 1 } })).json();
      const res = await app.inject({
        method: 'PUT',
        url: `/v1/anchor/${id}`,
        headers: alice,
        payload: { name: 'after', public: false, tags: ['x'], metadata: null },
      });
      assert.equal(res.statusCode, 200, res.body);
      const a = res.json();
      assert.equal(a.name, 'after');
      assert.equal(a.public, false);
      assert.deepEqual(a.tags, ['x']);
      assert.equal(a.metadata, undefined);
      assert.ok(a.lastModified >= a.created);
      const forbidden = await app.inject({
        method: 'PUT',
        url: `/v1/anchor/${id}`,
        headers: alice,
        payload: { hash: randomHash() },
      });
      assert.equal(forbidden.statusCode, 400);
      const other = await app.inject({
        method: 'PUT',
        url: `/v1/anchor/${id}`,
        headers: bob,
        payload: { name: 'mine' },
      });
      assert.equal(other.statusCode, 404);
    });

    it("another account's anchor and unknown ids are 404", async () => {
      const { id } = (await post({ name: 'x', hash: randomHash() })).json();
      assert.equal((await get(`/v1/anchor/${id}`, bob)).statusCode, 404);
      assert.equal((await get('/v1/anchor/6f1c7b0e-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await get('/v1/anchor/not-a-uuid')).statusCode, 404);
    });

    it("lists the account's anchors with filters, sort and the page format", async () => {
      const hash = randomHash();
      for (let i = 0; i < 5; i++)
        await post({ name: `list-${i}`, hash, tags: i % 2 === 0 ? ['even', 'all'] : ['all'] });
      const res = await get(`/v1/anchors?hash=${hash}&size=2&page=1&sort=name&direction=asc`);
      assert.equal(res.statusCode, 200, res.body);
      const p = res.json();
      assert.deepEqual(
        p.content.map((a: { name: string }) => a.name),
        ['list-2', 'list-3'],
      );
      assert.deepEqual(
        { ...p, content: undefined },
        { content: undefined, page: 1, size: 2, totalElements: 5, totalPages: 3, first: false, last: false },
      );
      const even = (await get(`/v1/anchors?hash=${hash}&tags=even,all`)).json();
      assert.equal(even.totalElements, 3);
      assert.equal((await get(`/v1/anchors?signedHash=${hash}`)).json().totalElements, 0, 'data anchors sign nothing');
      const named = (await get('/v1/anchors?name=list-4')).json();
      assert.equal(named.totalElements, 1);
      assert.equal((await get(`/v1/anchors?hash=${hash}`, bob)).json().totalElements, 0);
      assert.equal((await get('/v1/anchors?size=101')).statusCode, 400);
    });

    it('anchorids lists PUBLIC anchors only, with no account, under both spellings', async () => {
      const body = signatureBody(signer);
      const pub = (await post(body)).json();
      const priv = (
        await post({ ...signatureBody(signer), signedHash: body.signedHash, signature: body.signature, public: false })
      ).json();
      const anchored = sha256Hex(body.signature as string);
      for (const path of ['/v1/anchorids', '/v1/anchorIds']) {
        for (const query of [`signedHash=${body.signedHash as string}`, `hash=${anchored}`]) {
          const res = await app.inject({ method: 'GET', url: `${path}?${query}` });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json().content, [pub.id]);
          assert.equal(res.json().totalElements, 1);
        }
      }
      assert.ok(
        !JSON.stringify((await get(`/v1/anchors?signedHash=${body.signedHash as string}`, bob)).json()).includes(
          priv.id,
        ),
      );
      assert.equal((await app.inject({ method: 'GET', url: '/v1/anchorids' })).statusCode, 400);
      assert.equal(
        (await app.inject({ method: 'GET', url: `/v1/anchorids?hash=${randomHash().toUpperCase()}` })).statusCode,
        400,
      );
    });

    it('hash finds the anchored data, signedHash the signed hash: one file hash never finds an anchor twice', async () => {
      const fileHash = randomHash();
      const data = (await post({ name: 'data', hash: fileHash })).json();
      const signed = signatureBody(signer);
      const sig = (await post({ ...signed, signedHash: fileHash, signature: signer.sign(fileHash) })).json();
      const ids = async (query: string) =>
        (await app.inject({ method: 'GET', url: `/v1/anchorids?${query}` })).json().content as string[];
      assert.deepEqual(await ids(`hash=${fileHash}`), [data.id]);
      assert.deepEqual(await ids(`signedHash=${fileHash}`), [sig.id]);
      assert.deepEqual(await ids(`hash=${sig.hash as string}`), [sig.id]);
      assert.deepEqual(await ids(`hash=${sig.hash as string}&signedHash=${fileHash}`), [sig.id], 'both: an AND');
      assert.deepEqual(await ids(`hash=${fileHash}&signedHash=${fileHash}`), []);
      const mine = async (query: string) =>
        ((await get(`/v1/anchors?${query}`)).json().content as { id: string }[]).map((a) => a.id);
      assert.deepEqual(await mine(`hash=${fileHash}`), [data.id]);
      assert.deepEqual(await mine(`signedHash=${fileHash}`), [sig.id]);
    });

    it('receipt: 202 partial while WAIT, 200 Chainpoint v2 once SENT, status from the batch, private by id only', async () => {
      const body = signatureBody(signer, { identityURL: 'https://id.example.com/identity', public: false });
      const { id } = (await post(body)).json();
      const waiting = await app.inject({ method: 'GET', url: `/v1/receipt/${id}` });
      assert.equal(waiting.statusCode, 202);
      assert.deepEqual(waiting.json(), {
        partial: true,
        signature: {
          signedHash: body.signedHash,
          pubKey: body.pubKey,
          signature: body.signature,
          identityURL: body.identityURL,
        },
      });
      const others = await Promise.all(
        Array.from({ length: 6 }, async () => (await post({ name: 'o', hash: randomHash() })).json().id as string),
      );
      const batch = await insertBatch(s.db, [...others.slice(0, 3), id, ...others.slice(3)], { extraLeaves: 5 });
      const res = await app.inject({ method: 'GET', url: `/v1/receipt/${id}` });
      assert.equal(res.statusCode, 200, res.body);
      const r = res.json();
      assert.equal(r['@context'], 'https://w3id.org/chainpoint/v2');
      assert.equal(r.type, 'ChainpointSHA256v2');
      assert.deepEqual(r.anchors, [{ type: 'BTCOpReturn', sourceId: batch.txId }]);
      assert.equal(r.merkleRoot, batch.root.toString('hex'));
      assert.equal(r.proof.length, 4);
      assert.ok(rootFromPath(Buffer.from(r.targetHash, 'hex'), r.proof).equals(batch.root));
      assert.equal(r.signature.signedHash, body.signedHash);
      const got = (await get(`/v1/anchor/${id}`)).json();
      assert.equal(got.status, 'SENT');
      assert.equal(got.txId, batch.txId);
      assert.equal(got.confirmations, 0);
      await s.db.query(
        "UPDATE batch SET status = 'CONFIRMED', confirmations = 6, block_time = 1700000000000 WHERE id = $1",
        [batch.id],
      );
      const confirmed = (await get(`/v1/anchor/${id}`)).json();
      assert.deepEqual(
        [confirmed.status, confirmed.confirmations, confirmed.timestamp],
        ['CONFIRMED', 6, 1700000000000],
      );
      // Private: never listed by hash, but its receipt is served to whoever holds the id.
      for (const query of [`signedHash=${body.signedHash as string}`, `hash=${sha256Hex(body.signature as string)}`]) {
        const ids = await app.inject({ method: 'GET', url: `/v1/anchorids?${query}` });
        assert.equal(ids.json().totalElements, 0);
      }
    });

    it('receipt of a data anchor, of every leaf of an odd batch', async () => {
      const ids = await Promise.all(
        Array.from({ length: 7 }, async () => (await post({ name: 'd', hash: randomHash() })).json().id as string),
      );
      const batch = await insertBatch(s.db, ids);
      for (const id of ids) {
        const r = (await app.inject({ method: 'GET', url: `/v1/receipt/${id}` })).json();
        assert.equal(r.signature, undefined);
        assert.ok(rootFromPath(Buffer.from(r.targetHash, 'hex'), r.proof).equals(batch.root));
      }
    });

    it('receipt of an unknown or malformed id is 404', async () => {
      assert.equal(
        (await app.inject({ method: 'GET', url: '/v1/receipt/6f1c7b0e-0000-4000-8000-000000000000' })).statusCode,
        404,
      );
      assert.equal((await app.inject({ method: 'GET', url: '/v1/receipt/abc' })).statusCode, 404);
    });

    it('groups concurrent creations into few transactions (group commit), each request answered after commit', async () => {
      const hash = randomHash();
      const results = await Promise.all(Array.from({ length: 200 }, () => post({ name: 'gc', hash })));
      assert.ok(results.every((r) => r.statusCode === 200));
      const rows = await s.db.query<{ n: number; tx: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT xmin::text)::int AS tx FROM anchor WHERE hash = $1',
        [hash],
      );
      assert.equal(rows[0]!.n, 200);
      assert.ok(rows[0]!.tx < 200 / 4, `200 rows written in ${rows[0]!.tx} transactions`);
    });
  });
}

for (const kind of kinds) {
  describe(`signature anchors verified in worker threads (VERIFY_THREADS) on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let auth: { authorization: string };
    const signer = newSigner();
    const pool = signatureVerifyPool(1);
    const post = (body: unknown) =>
      app.inject({ method: 'POST', url: '/v1/anchor', headers: auth, payload: body as object });

    before(async () => {
      s = await kind.open();
      app = await testApp(s.store, {
        deps: { signatureVerifier: pool },
        config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }),
      });
      const deps = testDeps(s.store);
      const a = await createAccount(deps, { email: 'alice@example.com', password: PASSWORD });
      auth = { authorization: `Bearer ${(await createApiToken(deps, { accountId: a.id })).token}` };
    });
    after(async () => {
      await app?.close();
      await pool.close();
      await s?.destroy();
    });

    it('accepts a burst of good signatures and refuses, in the same burst, the bad ones with their codes', async () => {
      const ident = { signedIdentity: 'CN=Jane Doe', signedIssuerDomain: 'acme.com' };
      const cases: [Record<string, unknown>, number, string?][] = [
        ...Array.from({ length: 40 }, (): [Record<string, unknown>, number] => [signatureBody(signer), 200]),
        [{ ...signatureBody(signer, ident), pubKey: signer.publicKeyHex }, 200],
        [{ ...signatureBody(signer), pubKey: newSigner().address }, 400, 'INVALID_SIGNATURE'],
        [{ ...signatureBody(signer), signature: 'AAAA' }, 400, 'INVALID_SIGNATURE'],
        [{ ...signatureBody(signer), pubKey: 'nope' }, 400, 'INVALID_PUBKEY'],
        [{ ...signatureBody(signer), signedHash: randomHash().toUpperCase() }, 400, 'INVALID_HASH'],
      ];
      const results = await Promise.all(cases.map(([body]) => post(body)));
      results.forEach((res, i) => {
        const [body, status, code] = cases[i]!;
        assert.equal(res.statusCode, status, res.body);
        if (code) assert.equal(res.json().code, code);
        else assert.equal(res.json().signedHash, body.signedHash);
      });
      const rows = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM anchor');
      assert.equal(rows[0]!.n, 41);
    });
  });
}
