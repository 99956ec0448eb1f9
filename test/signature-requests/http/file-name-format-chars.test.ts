// tier: slow (a bcoin regtest node)
/**
 * A file name carrying a right-to-left override (`invoice\u202Efdp.exe`, shown as "invoiceexe.pdf"): uploaded,
 * signed by both signers and taken to COMPLETED on the embedded regtest node, both stores. The name is kept
 * without its invisible format characters in every view, and the sharing link's attestation is served (it
 * answered 500 INTERNAL once, issue 32 row 11).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { lazyPadesSigner } from '../../../src/adapters/pdf/lazy-pades-signer.js';
import { pdfSignedCopyAssembler } from '../../../src/adapters/pdf/signed-copy-assembler.js';
import { storeDocumentObjects } from '../../../src/adapters/store/document.repository.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../../src/app/anchoring/confirm-batches.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { startAnchoring, until, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { textPdf } from '../../support/test-pdfs.js';
import { createOwner, platformSignerIn } from '../fixture.js';

const kinds = await storeKinds();
const HOSTILE_NAME = 'invoice\u202Efdp.exe';
const SHOWN_NAME = 'invoicefdp.exe';
const FORMAT_CHARS = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/u;

function multipart(fileName: string, content: Uint8Array) {
  const boundary = `----proofseal${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const kind of kinds) {
  describe(`a file name with a bidi override, signed to COMPLETED, ${kind.name} store`, { skip: kind.skip }, () => {
    let f: AnchoringFixture;
    let app: FastifyInstance;
    let deps: AppDeps;
    let auth: { authorization: string };

    before(async () => {
      f = await startAnchoring(kind);
      const store = f.s.withJobs(() => f.jobs);
      const platformSigner = await platformSignerIn(store, { now: Date.now });
      const attestation = {
        renderer: pdfAttestationRenderer(),
        images: cachedBrandImages(createSafeFetch({ allowPrivateUrls: false })),
        publicUrl: 'https://proofseal.example.com',
        serviceName: 'proofseal',
        signer: lazyPadesSigner({
          secretKey: 'p'.repeat(40),
          serviceName: 'proofseal',
          tsaUrls: [],
          tsaHttp: createSafeFetch({ allowPrivateUrls: true }),
          now: Date.now,
        }),
        copies: pdfSignedCopyAssembler(),
      };
      const documents = { objects: storeDocumentObjects(f.s.db), retentionMs: 86_400_000 };
      deps = testDeps(store, { chain: f.chain, jobs: f.jobs, platformSigner, attestation, documents });
      app = await testApp(store, { deps, config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) });
      auth = (await createOwner(deps)).auth;
    });
    after(async () => {
      await app?.close();
      await f?.close();
    });

    const contents: [string, () => Promise<Uint8Array>, number][] = [
      ['a PDF', () => textPdf(1), 200],
      ['a program (not a PDF)', async () => Buffer.concat([Buffer.from('MZ'), randomBytes(2048)]), 409],
    ];
    for (const [what, content, copyStatus] of contents)
      it(`${what}: the name is kept without its format characters; the sharing link serves the attestation`, async () => {
        const pdf = await content();
        const hashToSign = createHash('sha256').update(pdf).digest('hex');
        const signers = [1, 2].map((n) => ({ commonName: `\u2067Signer\u2069 ${n}`, email: `signer${n}@example.com` }));
        const created = await app.inject({
          method: 'POST',
          url: '/v1/signatureRequest',
          headers: auth,
          payload: { name: `Pay ${HOSTILE_NAME}`, hashToSign, fileName: HOSTILE_NAME, authorizedSignees: signers },
        });
        assert.equal(created.statusCode, 200, created.body);
        const id = created.json<{ id: string }>().id;
        const form = multipart(HOSTILE_NAME, pdf);
        const uploaded = await app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/file`,
          headers: { ...auth, ...form.headers },
          payload: form.payload,
        });
        assert.equal(uploaded.statusCode, 200, uploaded.body);
        assert.equal(uploaded.json<{ fileName: string }>().fileName, SHOWN_NAME);

        for (const s of (await deps.store.signatureRequests.findById(id))!.signers) {
          const signeeId = signerSecretOf(deps, s);
          const view = await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${signeeId}` });
          assert.equal(view.json<{ fileName: string }>().fileName, SHOWN_NAME, "the signer's view");
          const file = await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file?signeeId=${signeeId}` });
          assert.equal(file.statusCode, 200);
          assert.doesNotMatch(String(file.headers['content-disposition']), /%E2%80%AE/i, 'the download name');
          const res = await app.inject({
            method: 'POST',
            url: `/v1/signatureRequest/${id}/delegate`,
            payload: { signeeId },
          });
          assert.equal(res.statusCode, 200, res.body);
        }
        assert.equal(await sealAuditTrail(deps, { requestId: id }), 'sealed');
        await closeBatch(f.deps, { maxSize: 1000 });
        const txid = (await sendBatches(f.deps)).sent[0]!;
        await until(() => f.chain.isInMempool(txid), `${txid} in the mempool`);
        await f.node.mine(6);
        await confirmBatches(f.deps);
        assert.equal(await completeProofBundles(deps, { limit: 10 }), 1);

        const shared = `/v1/signatureRequest/${id}/shared/${deriveSharingToken(deps.secretKey, id)}`;
        const view = await app.inject({ method: 'GET', url: shared });
        assert.equal(view.statusCode, 200, view.body);
        assert.equal(view.json<{ fileName: string }>().fileName, SHOWN_NAME, 'the sharing view');
        const shownSigners = view.json<{ signers: { commonName: string }[] }>().signers.map((s) => s.commonName);
        assert.deepEqual(shownSigners, ['Signer 1', 'Signer 2'], "the signers' names, without their isolates");
        const attestation = await app.inject({ method: 'GET', url: `${shared}/attestation` });
        assert.equal(attestation.statusCode, 200, attestation.body);
        assert.equal(attestation.headers['content-type'], 'application/pdf');
        const signedCopy = await app.inject({
          method: 'GET',
          url: `/v1/signatureRequest/${id}/file?amended=true`,
          headers: auth,
        });
        assert.equal(signedCopy.statusCode, copyStatus, signedCopy.body.slice(0, 300));
        assert.doesNotMatch(String(signedCopy.headers['content-disposition'] ?? ''), /%E2%80%AE/i);
        const owner = await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}`, headers: auth });
        assert.doesNotMatch(owner.json<{ fileName: string; name: string }>().fileName, FORMAT_CHARS);
        assert.equal(owner.json<{ name: string }>().name, `Pay ${SHOWN_NAME}`, "the request's name");
      });
  });
}
