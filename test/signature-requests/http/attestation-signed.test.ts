// tier: slow (measured: 10.4 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * The hook where the attestation is made, on both stores: with a PDF signer in the attestation service, the
 * kept PDF is the rendered one plus its PAdES signature (pdfsig: valid, whole document), and it is what is
 * served from then on; a signer that cannot sign now (NOT_READY) keeps nothing, so the next reader retries.
 * The request is one made over HTTP, read back as COMPLETED with a complete bundle (the states and proofs
 * that lead there have their own tests: attestation-pdf.test.ts on regtest).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { padesSigner } from '../../../src/adapters/pdf/pades-signer.js';
import { serviceSigningIdentity } from '../../../src/adapters/pdf/signing-identity.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { attestationPdf } from '../../../src/app/signature-requests/attestation/attestation-pdf.js';
import type { PdfSigner } from '../../../src/app/signature-requests/attestation/pdf-signer.port.js';
import { DomainError } from '../../../src/core/errors.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, type Bench } from '../fixture.js';

const kinds = await storeKinds();

function pdfsig(pdf: Uint8Array): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-signed-attestation-'));
  try {
    const file = path.join(dir, 'attestation.pdf');
    writeFileSync(file, pdf);
    const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    return `${r.stdout}${r.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of kinds) {
  describe(`signed attestation on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    benchPerSuite(kind, (opened) => (b = opened));

    /** Deps whose store reads `id` as COMPLETED with a complete bundle, and whose attestations use `signer`. */
    function completedDeps(id: string, signer: PdfSigner): AppDeps {
      const requests = b.deps.store.signatureRequests;
      const findById: typeof requests.findById = async (...args) => {
        const found = await requests.findById(...args);
        return found && found.id === id ? { ...found, state: 'COMPLETED', proofBundleComplete: true } : found;
      };
      const store = { ...b.deps.store, signatureRequests: { ...requests, findById } } as AppDeps['store'];
      const attestation = {
        renderer: pdfAttestationRenderer(),
        images: cachedBrandImages(createSafeFetch({ allowPrivateUrls: false })),
        publicUrl: 'https://proofseal.example.com',
        serviceName: 'proofseal',
        signer,
      };
      return { ...b.deps, store, attestation };
    }

    it('the kept attestation is the signed one, served as kept', async () => {
      const { id } = await createRequest(b);
      const identity = await serviceSigningIdentity('k'.repeat(40), 'proofseal');
      let signed = 0;
      const inner = padesSigner({ identity: async () => identity, now: Date.now });
      const counting: PdfSigner = { sign: async (pdf) => ((signed += 1), inner.sign(pdf)) };
      const deps = completedDeps(id, counting);
      const pdf = await attestationPdf(deps, id);
      assert.equal(signed, 1);
      const report = pdfsig(pdf);
      assert.match(report, /Signature Validation: Signature is Valid\./);
      assert.match(report, /Total document signed/);
      assert.match(report, /Signer Certificate Common Name: proofseal/);
      const again = await attestationPdf(deps, id);
      assert.deepEqual(Buffer.from(again), Buffer.from(pdf), 'the kept bytes, not a new signature');
      assert.equal(signed, 1);
    });

    it('a signer that cannot sign now: NOT_READY and nothing kept, the next reader tries again', async () => {
      const { id } = await createRequest(b);
      const refusing: PdfSigner = {
        sign: async () => {
          throw new DomainError('NOT_READY', 'the PDF cannot be signed now');
        },
      };
      await assert.rejects(attestationPdf(completedDeps(id, refusing), id), { code: 'NOT_READY' });
      assert.equal(await b.deps.store.attestations.find(id), null);
    });
  });
}
