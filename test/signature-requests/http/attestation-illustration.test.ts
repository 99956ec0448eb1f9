// tier: slow (poppler, openssl or qpdf)
/**
 * The illustration (`serviceIllustrationURL`) where the spec puts it, in the attestation, on both stores: the
 * request's URL is fetched through the same safe fetch and cache as the logo and drawn in the PDF's header;
 * an internal address the guard refuses, or a URL that serves no image (404), leaves it out.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { attestationContent } from '../../../src/app/signature-requests/attestation/attestation-content.js';
import type { AttestationModel } from '../../../src/app/signature-requests/attestation/attestation-model.js';
import { proofBundleJson, type ProofBundle } from '../../../src/app/signature-requests/proof-bundle.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { logoServer, type LogoServer } from '../../support/logo-server.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();

/** How many images the PDF draws, as poppler's pdfimages lists them. */
function imageCount(pdf: Uint8Array): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-illustration-'));
  try {
    const file = path.join(dir, 'attestation.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of kinds) {
  describe(`attestation illustration on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let images: LogoServer;
    before(async () => {
      images = await logoServer();
    });
    after(() => images?.server.close());
    benchPerSuite(kind, (opened) => (b = opened));

    /** The attestation of a new request with `vars`, its images fetched with or without private URLs allowed. */
    async function attestation(vars: Record<string, string>, allowPrivateUrls: boolean) {
      const { id } = await createRequest(b, requestBody({ vars }));
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const service = {
        renderer: pdfAttestationRenderer(),
        images: cachedBrandImages(createSafeFetch({ allowPrivateUrls })),
        publicUrl: 'https://proofseal.example.com',
        serviceName: 'proofseal',
      };
      const bundle: ProofBundle = { signatureReceipts: [], complete: true };
      const deps = { ...b.deps, attestation: service };
      const model: AttestationModel = await attestationContent(deps, request, bundle, proofBundleJson(bundle));
      return { branding: model.branding, images: imageCount(await service.renderer.render(model)) };
    }

    it('a PNG at serviceIllustrationURL is fetched once through the safe fetch and drawn in the PDF', async () => {
      const hits = images.hits();
      const made = await attestation({ serviceIllustrationURL: images.url }, true);
      assert.equal(images.hits(), hits + 1);
      assert.equal(made.branding.illustration?.type, 'png');
      assert.deepEqual(Buffer.from(made.branding.illustration.bytes), images.png);
      assert.equal(made.branding.logo, null, 'no logo was asked for: the one image is the illustration');
      assert.equal(made.images, 1);
    });

    it('an internal address refused by the guard, or a URL answering 404: no illustration drawn', async () => {
      const hits = images.hits();
      const refused = await attestation({ serviceIllustrationURL: images.url }, false);
      assert.equal(images.hits(), hits, 'the guard refused the address before any request');
      assert.equal(refused.branding.illustration, null);
      assert.equal(refused.images, 0);
      const missing = await attestation({ serviceIllustrationURL: images.url.replace('logo.png', 'none.png') }, true);
      assert.equal(images.hits(), hits + 1);
      assert.equal(missing.branding.illustration, null);
      assert.equal(missing.images, 0);
    });
  });
}
