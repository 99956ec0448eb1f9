// tier: slow (measured: 14.8 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Issue 21 item 11: every URL a user gives goes through the one check (check-user-url.ts → safe-fetch's
 * checkTarget): each private form is refused with 400 FORBIDDEN_URL in each field, at creation and at PUT,
 * on both stores; the service's own identity server (its configured origin) stays allowed, nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { storeKinds } from '../../support/stores.js';
import { newSigner, signatureBody } from '../../support/anchors.js';
import { createRequest, openBench, requestBody, signer, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();

/** The own identity server, as IDENTITY_PUBLIC_URL names it in the default run. */
const OWN_IDENTITY = 'http://localhost:3001';

const PRIVATE_URLS = [
  'http://127.0.0.1:8080/x',
  'http://localhost:3002/x',
  'http://[::1]/x',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.7/x',
  'http://loopback.example.net/x', // resolves to 127.0.0.1 (the test's resolver)
  'http://2130706433/x', // 127.0.0.1 in decimal
  'http://0177.0.0.1/x', // 127.0.0.1 in octal
  'http://0x7f.1/x',
  `${OWN_IDENTITY.replace('3001', '3009')}/x`, // the own host, another port
];

/** Where a URL goes in a signature request's body. */
const REQUEST_FIELDS: [string, (url: string) => Record<string, unknown>][] = [
  ['identityURL', (url) => ({ identityURL: url })],
  ['callbackURL', (url) => ({ callbackURL: url })],
  ['fileURL', (url) => ({ fileURL: url })],
  ['vars.serviceLogoURL', (url) => ({ vars: { serviceLogoURL: url } })],
  ['vars.serviceIllustrationURL', (url) => ({ vars: { serviceIllustrationURL: url } })],
  ['vars.serviceURL', (url) => ({ vars: { serviceURL: url } })],
  [
    'authorizedSignees[0].vars.serviceLogoURL',
    (url) => ({ authorizedSignees: [{ ...signer(1), vars: { serviceLogoURL: url } }] }),
  ],
  [
    'watchers[0].vars.serviceIllustrationURL',
    (url) => ({ watchers: [{ email: 'w@example.com', vars: { serviceIllustrationURL: url } }] }),
  ],
];

function forbidden(res: LightMyRequestResponse, what: string, field: string): void {
  assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
  assert.equal(res.json().code, 'FORBIDDEN_URL', what);
  assert.ok(res.json().message.includes(`"${field}"`), `${what} names the field: ${res.json().message}`);
}

for (const kind of kinds) {
  describe(`user URLs refused when private, on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let draftId: string;
    before(async () => {
      const httpClient = createSafeFetch({
        allowPrivateUrls: false,
        allowedOrigins: [OWN_IDENTITY],
        lookup: async (host) =>
          host === 'loopback.example.net' || host === 'localhost'
            ? [{ address: '127.0.0.1', family: 4 }]
            : [{ address: '93.184.216.34', family: 4 }],
      });
      b = await openBench(kind, { httpClient });
      draftId = (await createRequest(b, requestBody({ state: 'DRAFT' }))).id;
    });
    after(async () => b?.close());

    const post = (payload: Record<string, unknown>) =>
      b.app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: b.auth, payload });
    const put = (payload: Record<string, unknown>) =>
      b.app.inject({ method: 'PUT', url: `/v1/signatureRequest/${draftId}`, headers: b.auth, payload });

    it('a signature request: every private form in every URL field, at creation and at PUT', async () => {
      for (const [field, place] of REQUEST_FIELDS)
        for (const url of PRIVATE_URLS) {
          forbidden(await post(requestBody(place(url))), `POST ${field} ${url}`, field);
          forbidden(await put(requestBody(place(url))), `PUT ${field} ${url}`, field);
        }
      // The draft kept its fields.
      const kept = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${draftId}`, headers: b.auth });
      assert.equal(kept.json().identityURL, undefined);
    });

    it('takes public URLs, and the own identity server (its configured origin only)', async () => {
      const ok = await post(
        requestBody({
          identityURL: `${OWN_IDENTITY}/v1/identity/abc`,
          callbackURL: 'https://hooks.example.com/in',
          fileURL: 'https://files.example.com/contract.pdf',
          vars: { serviceLogoURL: 'https://cdn.example.com/logo.png' },
        }),
      );
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().identityURL, `${OWN_IDENTITY}/v1/identity/abc`);
      const changed = await put(requestBody({ identityURL: 'https://id.example.com/v1/identity/k' }));
      assert.equal(changed.statusCode, 200, changed.body);
    });

    it('an anchor: identityURL and callbackURL at creation, callbackURL at PUT', async () => {
      const key = newSigner();
      const created = await b.app.inject({
        method: 'POST',
        url: '/v1/anchor',
        headers: b.auth,
        payload: signatureBody(key, { identityURL: 'https://id.example.com/v1/identity/k' }),
      });
      assert.equal(created.statusCode, 200, created.body);
      const anchorId = created.json().id as string;
      for (const url of PRIVATE_URLS) {
        for (const field of ['identityURL', 'callbackURL']) {
          const res = await b.app.inject({
            method: 'POST',
            url: '/v1/anchor',
            headers: b.auth,
            payload: signatureBody(key, { [field]: url }),
          });
          forbidden(res, `anchor ${field} ${url}`, field);
        }
        const res = await b.app.inject({
          method: 'PUT',
          url: `/v1/anchor/${anchorId}`,
          headers: b.auth,
          payload: { callbackURL: url },
        });
        forbidden(res, `anchor PUT callbackURL ${url}`, 'callbackURL');
      }
    });

    it("a signer's own-key signature: its identityURL", async () => {
      const { id, signeeIds } = await createRequest(b);
      for (const url of PRIVATE_URLS) {
        const res = await b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/sign`,
          payload: { signeeId: signeeIds[0], signature: 'x', pubKey: 'x', identityURL: url },
        });
        forbidden(res, `sign identityURL ${url}`, 'identityURL');
      }
    });
  });
}
