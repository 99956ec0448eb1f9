// tier: slow (measured: 15.3 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The request's logo served from this origin, on both stores: a signer (signeeId) and the sharing link get
 * the PNG a local server serves, fetched once through the real safe fetch and its cache, with the sniffed
 * type and the private cache headers; a wrong signeeId or token gets the same 404 as an unknown request; no
 * logo (a signer's own `serviceLogoURL` overriding the request's), one the guard refuses (internal address) or one that is not an image: 404 NO_LOGO.
 * The signer's view says whether a logo is named (`hasLogo`), and the signing page asks `…/logo` only then.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { createRequest, openBench, requestBody, signer, type Bench } from '../fixture.js';
import { TEST_SECRET_KEY, testApp } from '../../support/fixtures.js';
import { logoServer, type LogoServer } from '../../support/logo-server.js';
import { storeKinds } from '../../support/stores.js';
import { blackPng } from '../../support/crafted-images.js';
import { signerLogoUrl } from '../../../src/web/browser/signer-logo.js';

const kinds = await storeKinds();

const attestation = (allowPrivateUrls: boolean) => ({
  renderer: pdfAttestationRenderer(),
  images: cachedBrandImages(createSafeFetch({ allowPrivateUrls })),
  publicUrl: 'https://proofseal.example.com',
  serviceName: 'proofseal',
});

for (const kind of kinds) {
  describe(`request logo routes on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let logo: LogoServer;
    before(async () => {
      logo = await logoServer();
      b = await openBench(kind, { attestation: attestation(true) });
    });
    after(async () => {
      await b?.close();
      logo?.server.close();
    });

    const get = (url: string, app: FastifyInstance = b.app) => app.inject({ method: 'GET', url });
    const signerLogo = (id: string, signeeId: string, app?: FastifyInstance) =>
      get(`/v1/signatureRequest/${id}/logo?signeeId=${encodeURIComponent(signeeId)}`, app);
    const sharedLogo = (id: string, token: string) => get(`/v1/signatureRequest/${id}/shared/${token}/logo`);
    const withLogo = (url: string) => createRequest(b, requestBody({ vars: { serviceLogoURL: url } }));

    it('serves the PNG to a signer and to the sharing link, fetched once, with the private cache headers', async () => {
      const before = logo.hits();
      const { id, signeeIds } = await withLogo(logo.url);
      const answers = [
        await signerLogo(id, signeeIds[0]!),
        await signerLogo(id, signeeIds[1]!),
        await sharedLogo(id, deriveSharingToken(TEST_SECRET_KEY, id)),
      ];
      for (const res of answers) {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal(res.headers['cache-control'], 'private, max-age=3600');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.deepEqual(res.rawPayload, logo.png);
      }
      assert.equal(logo.hits() - before, 1, 'fetched once (its size checked at creation), then from the cache');
    });

    it('a wrong signeeId or token gets the same 404 as an unknown request', async () => {
      const { id } = await withLogo(logo.url);
      const other = await withLogo(logo.url);
      const wrongKey = 'another key of at least thirty-two chars';
      const asSigner = await Promise.all([
        signerLogo(randomUUID(), other.signeeIds[0]!),
        signerLogo(id, other.signeeIds[0]!),
        signerLogo(id, 'x'.repeat(43)),
      ]);
      const asLink = await Promise.all([
        sharedLogo(randomUUID(), deriveSharingToken(TEST_SECRET_KEY, randomUUID())),
        sharedLogo(id, deriveSharingToken(wrongKey, id)),
        sharedLogo(id, deriveSharingToken(TEST_SECRET_KEY, other.id)),
      ]);
      for (const answers of [asSigner, asLink])
        for (const res of answers) {
          assert.equal(res.statusCode, 404, res.body);
          assert.equal(res.json().code, 'NOT_FOUND');
          assert.deepEqual(res.json(), answers[0]!.json());
        }
    });

    it("the signer's view says whether a logo is named; the signing page asks for none without one", async () => {
      const view = async (id: string, signeeId: string) => {
        const res = await get(`/v1/signatureRequest/${id}?signeeId=${encodeURIComponent(signeeId)}`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json<{ hasLogo?: boolean }>();
      };
      const none = await createRequest(b);
      const mixed = await createRequest(
        b,
        requestBody({ authorizedSignees: [signer(1), signer(2)], vars: { serviceLogoURL: logo.url } }),
      );
      const signerOnly = await createRequest(
        b,
        requestBody({ authorizedSignees: [{ ...signer(1), vars: { serviceLogoURL: logo.url } }] }),
      );
      const target = (id: string, signeeId: string) => ({ path: `/v1/signatureRequest/${id}`, signerSecret: signeeId });
      const noLogo = await view(none.id, none.signeeIds[0]!);
      assert.equal(noLogo.hasLogo, false);
      assert.equal(signerLogoUrl(noLogo, target(none.id, none.signeeIds[0]!)), null, 'no /logo asked');
      const withOne = await view(mixed.id, mixed.signeeIds[0]!);
      assert.equal(withOne.hasLogo, true);
      const url = signerLogoUrl(withOne, target(mixed.id, mixed.signeeIds[0]!))!;
      assert.equal((await get(url)).statusCode, 200, 'the URL the page asks serves the logo');
      assert.equal((await view(mixed.id, mixed.signeeIds[1]!)).hasLogo, true, "the request's logo, for each signer");
      assert.equal((await view(signerOnly.id, signerOnly.signeeIds[0]!)).hasLogo, true, "the signer's own var");
      const owner = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${mixed.id}`, headers: b.auth });
      assert.equal(owner.json<{ hasLogo?: boolean }>().hasLogo, undefined, "not in the owner's view");
    });

    it('NO_LOGO without a logo, for one that is not an image, and for one the guard refuses', async () => {
      const none = await createRequest(b);
      const missingUrl = logo.url.replace('/logo.png', '/missing.png');
      const missing = await withLogo(missingUrl);
      assert.equal((await signerLogo(none.id, none.signeeIds[0]!)).json().code, 'NO_LOGO');
      const own = { ...signer(2), vars: { serviceLogoURL: missingUrl } };
      const mixed = await createRequest(
        b,
        requestBody({ authorizedSignees: [signer(1), own], vars: { serviceLogoURL: logo.url } }),
      );
      assert.equal((await signerLogo(mixed.id, mixed.signeeIds[0]!)).statusCode, 200);
      assert.equal(
        (await signerLogo(mixed.id, mixed.signeeIds[1]!)).json().code,
        'NO_LOGO',
        "the signer's own var wins",
      );
      const res = await sharedLogo(missing.id, deriveSharingToken(TEST_SECRET_KEY, missing.id));
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'NO_LOGO');
      const guarded = await testApp(b.deps.store, { deps: { ...b.deps, attestation: attestation(false) } });
      try {
        const internal = await withLogo(logo.url);
        const hits = logo.hits();
        const refused = await signerLogo(internal.id, internal.signeeIds[0]!, guarded);
        assert.equal(refused.statusCode, 404, refused.body);
        assert.equal(refused.json().code, 'NO_LOGO');
        assert.equal(logo.hits(), hits, 'the guard refused the internal address before any request');
      } finally {
        await guarded.close();
      }
    });

    it('an image whose header says more than the bound: 400 IMAGE_TOO_LARGE when set; NO_LOGO once it grew', async () => {
      let served = blackPng(6000, 6000);
      const images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(served));
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(images.address() as AddressInfo).port}/image.png`;
      try {
        const asLogo = await b.app.inject({
          method: 'POST',
          url: '/v1/signatureRequest',
          headers: b.auth,
          payload: requestBody({ vars: { serviceLogoURL: url } }),
        });
        assert.equal(asLogo.statusCode, 400, asLogo.body);
        assert.equal(asLogo.json().code, 'IMAGE_TOO_LARGE');
        assert.match(asLogo.json().message, /"vars\.serviceLogoURL": the image is 6000×6000 pixels/);
        const asSignersIllustration = await b.app.inject({
          method: 'POST',
          url: '/v1/signatureRequest',
          headers: b.auth,
          payload: requestBody({
            authorizedSignees: [{ ...signer(1), vars: { serviceIllustrationURL: `${url}?i` } }],
          }),
        });
        assert.equal(asSignersIllustration.json().code, 'IMAGE_TOO_LARGE');
        assert.match(asSignersIllustration.json().message, /authorizedSignees\[0\]\.vars\.serviceIllustrationURL/);

        served = logo.png;
        const fine = await withLogo(`${url}?fine`);
        served = blackPng(6000, 6000);
        const later = await testApp(b.deps.store, { deps: { ...b.deps, attestation: attestation(true) } });
        try {
          const res = await signerLogo(fine.id, fine.signeeIds[0]!, later);
          assert.deepEqual([res.statusCode, res.json().code], [404, 'NO_LOGO']);
        } finally {
          await later.close();
        }
      } finally {
        images.close();
      }
    });
  });
}
