// tier: slow (measured: 17.8 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The sharing link's read API and the pages' server side, on both stores: the right token reads the request
 * (no signer secret or phone; the requester and signers by name and e-mail, as the attestation names them), a
 * wrong token and an unknown request get one 404, the attestation goes
 * through its port; CORS opens the signer routes only; /sign and /share carry the strict headers.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deriveSharingToken, sharingPath } from '../../../src/core/signature-requests/sharing-token.js';
import { CONTENT_SECURITY_POLICY } from '../../../src/http/routes/web/web.route.js';
import { createRequest, delegate, openBench, requestBody, signer, type Bench } from '../fixture.js';
import { TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { testWebAssets } from '../../support/web-bundle.js';

const kinds = await storeKinds();
const { assets } = await testWebAssets();
const otpSigner = { ...signer(3), countryCallingCode: '33', phone: '612345678', requiresOTP: true };

for (const kind of kinds) {
  describe(`sharing API and page routes on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind, {}, { webAssets: assets });
    });
    after(async () => b?.close());

    const shared = (id: string, token: string, rest = '') =>
      b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/shared/${token}${rest}` });

    it('reads the request with its token: state, requester, signers as the attestation names them; never a signeeId or phone', async () => {
      const body = requestBody({
        authorizedSignees: [signer(1), otpSigner],
        vars: {
          requesterName: 'Acme Legal',
          brandColor1: '#1c4587',
          serviceName: 'Acme Sign',
          redirectURL: 'https://acme.example.com/done',
        },
      });
      const { id, signeeIds } = await createRequest(b, body);
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      const res = await shared(id, deriveSharingToken(TEST_SECRET_KEY, id));
      assert.equal(res.statusCode, 200, res.body);
      const view = res.json();
      assert.equal(view.state, 'IN_PROGRESS');
      assert.deepEqual(
        view.requester,
        { name: 'Acme Legal', email: 'owner@example.com' },
        'as the attestation names it',
      );
      assert.deepEqual(view.branding, { brandColor1: '#1c4587', serviceName: 'Acme Sign' }, 'branding vars only');
      assert.deepEqual(
        view.signers.map((s: { commonName: string; email?: string; proofStatus?: string }) => [
          s.commonName,
          s.email,
          s.proofStatus,
        ]),
        [
          ['Signer 1', 'signer1@example.com', 'WAIT'],
          ['Signer 3', 'signer3@example.com', undefined],
        ],
      );
      for (const secret of [...signeeIds, '612345678', 'signeeId'])
        assert.ok(!res.body.includes(secret), `the shared view leaks ${secret}`);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('one 404 for a wrong token, a malformed one, another request’s and an unknown request', async () => {
      const { id } = await createRequest(b);
      const other = await createRequest(b);
      const answers = await Promise.all([
        shared(id, deriveSharingToken('another key of at least thirty-two chars', id)),
        shared(id, 'short'),
        shared(id, deriveSharingToken(TEST_SECRET_KEY, other.id)),
        shared(randomUUID(), deriveSharingToken(TEST_SECRET_KEY, randomUUID())),
        shared(id, deriveSharingToken('another key of at least thirty-two chars', id), '/proofbundle'),
      ]);
      for (const res of answers) {
        assert.equal(res.statusCode, 404, res.body);
        assert.deepEqual(res.json(), answers[0]!.json());
      }
    });

    it('the proof bundle and the attestation: 202 while the proofs are partial, then the kept PDF', async () => {
      const { id, signeeIds } = await createRequest(b);
      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      const token = deriveSharingToken(TEST_SECRET_KEY, id);
      const bundle = await shared(id, token, '/proofbundle');
      assert.equal(bundle.statusCode, 202);
      assert.deepEqual(bundle.json().signatureReceipts, []);
      assert.match(String(bundle.headers['content-disposition']), /^attachment; filename="proof-bundle-/);
      const pending = await shared(id, token, '/attestation');
      assert.equal(pending.statusCode, 202, pending.body);
      assert.equal(pending.json().code, 'ATTESTATION_PENDING');
      await b.deps.store.attestations.save(id, Buffer.from('%PDF-1.7 test'), Date.now());
      const res = await shared(id, token, '/attestation');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.body, '%PDF-1.7 test');
    });

    it("the owner's view carries the sharing URL; a signer's view names the requester and has no link", async () => {
      const { id, signeeIds } = await createRequest(b);
      const owner = (await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: b.auth })).json();
      const link = new URL(owner.signatureRequestSharingURL);
      assert.equal(link.pathname, sharingPath(TEST_SECRET_KEY, id));
      assert.equal(link.origin, new URL(testConfig().publicUrl).origin);
      const listed = (await b.app.inject({ url: '/v1/signatureRequests', headers: b.auth })).json();
      assert.ok(listed.content.every((r: { signatureRequestSharingURL?: string }) => r.signatureRequestSharingURL));
      const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${signeeIds[0]}` });
      assert.deepEqual(res.json().requester, { name: 'owner@example.com', email: 'owner@example.com' });
      assert.equal(res.json().signatureRequestSharingURL, undefined);
      assert.equal((await b.app.inject({ url: link.pathname })).statusCode, 200);
    });

    it('CORS: signer routes answer any origin without credentials; owner routes answer none', async () => {
      const { id, signeeIds } = await createRequest(b);
      const preflight = (url: string, method = 'POST') =>
        b.app.inject({
          method: 'OPTIONS',
          url,
          headers: {
            origin: 'https://sign.example.org',
            'access-control-request-method': method,
            'access-control-request-headers': 'content-type',
          },
        });
      const ok = await preflight(`/v1/signatureRequest/${id}/delegate`);
      assert.equal(ok.statusCode, 204);
      assert.equal(ok.headers['access-control-allow-origin'], '*');
      assert.equal(ok.headers['access-control-allow-credentials'], undefined);
      for (const url of ['/v1/anchor', `/v1/signatureRequest/${id}/transition`, '/v1/user/info'])
        assert.equal((await preflight(url)).headers['access-control-allow-origin'], undefined, url);
      const origin = { origin: 'https://sign.example.org' };
      const view = await b.app.inject({ url: `/v1/signatureRequest/${id}?signeeId=${signeeIds[0]}`, headers: origin });
      assert.equal(view.headers['access-control-allow-origin'], '*');
      const owner = await b.app.inject({ url: `/v1/signatureRequest/${id}`, headers: { ...origin, ...b.auth } });
      assert.equal(owner.statusCode, 200);
      assert.equal(owner.headers['access-control-allow-origin'], undefined);
    });

    it('the OpenAPI document describes the sharing routes', async () => {
      const doc = (await b.app.inject('/v1/openapi.json')).json() as { paths: Record<string, unknown> };
      for (const p of ['', '/proofbundle', '/attestation'])
        assert.ok(doc.paths[`/v1/signatureRequest/{id}/shared/{token}${p}`], p);
    });

    it('GET /sign and /share/{id}/{token}: strict headers; a wrong token is a 404 page', async () => {
      const { id } = await createRequest(b);
      const requestUrl = `http://localhost/v1/signatureRequest/${id}?signeeId=x`;
      const sign = await b.app.inject({ url: `/sign?signatureRequestURL=${encodeURIComponent(requestUrl)}` });
      assert.equal(sign.statusCode, 200);
      assert.equal(sign.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
      assert.equal(sign.headers['referrer-policy'], 'no-referrer');
      assert.ok(sign.body.includes(`href="/sign?signatureRequestURL=${encodeURIComponent(requestUrl)}&amp;lang=fr"`));
      assert.doesNotMatch(sign.body, /<script>|style=|\son\w+=/);
      const page = await b.app.inject({ url: sharingPath(TEST_SECRET_KEY, id) });
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
      // The service's network, so the page links blocks to that network's explorers (regtest's: none).
      assert.match(page.body, /<main id="main" tabindex="-1" data-network="regtest">/);
      const wrong = await b.app.inject({ url: `/share/${id}/${'A'.repeat(43)}` });
      assert.equal(wrong.statusCode, 404);
      assert.match(String(wrong.headers['content-type']), /^text\/html/);
    });
  });
}
