// tier: slow (a bcoin regtest node)
/**
 * The attestation PDF end to end on the real embedded bcoin node, both stores: 409 before the request is
 * sealed, 202 while its proofs are unconfirmed, then a kept PDF read back with poppler — pdftotext names the
 * document, its hash and the signers (French accents right), pdfdetach extracts the proof bundle, which is
 * byte for byte what /proofbundle serves and verifies with the independent verifier; pdftoppm renders page 1
 * (saved to $ATTESTATION_ARTIFACTS_DIR, default a tmp dir). The logo comes from a local HTTP server through
 * the safe fetch; a logo on an internal address is refused by the guard and the fallback is drawn. With the
 * transparency log on, the attached bundle carries the inclusion proofs of its three anchors under the log key.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { closeBatch } from '../../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../../src/app/anchoring/confirm-batches.js';
import { sendBatches } from '../../../src/app/anchoring/send-batches.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import { localSigner } from '../../../src/app/identity/sign-hash.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { attestationPdf } from '../../../src/app/signature-requests/attestation/attestation-pdf.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { PRODUCE_ATTESTATION } from '../../../src/app/signature-requests/lifecycle.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { deriveSharingToken, sharingPath } from '../../../src/core/signature-requests/sharing-token.js';
import { startAnchoring, until, type AnchoringFixture } from '../../support/anchoring-fixture.js';
import { testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { verifyReceiptIndependently, type ReceiptLike } from '../../support/independent-verifier.js';
import { logoServer } from '../../support/logo-server.js';
import { storeKinds } from '../../support/stores.js';
import { loadLogKey } from '../../../src/app/transparency/log-key.js';
import { sequenceLog } from '../../../src/app/transparency/sequence-log.js';
import {
  checkBundleEvents,
  checkBundleInclusion,
  type BundleLogProofs,
  type ReceiptForLog,
} from '../../../src/core/tlog/bundle-proofs.js';
import { openCheckpoint, parseVerifierKey } from '../../../src/core/tlog/checkpoint.js';

const kinds = await storeKinds();
const artifacts = process.env.ATTESTATION_ARTIFACTS_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'proofseal-attest-'));
const PUBLIC_URL = 'https://proofseal.example.com';
const LOG_ORIGIN = 'proofseal.example.com/log';

function poppler(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8' });
}

/** The PDF's text, its attachment list and the bundle it carries, read with poppler. */
function readWithPoppler(pdf: Buffer, name: string): { text: string; list: string; bundle: Buffer; images: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-pdf-'));
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const out = path.join(dir, 'out');
  mkdirSync(out);
  poppler('pdfdetach', ['-saveall', '-o', out, file]);
  const saved = readdirSync(out);
  assert.equal(saved.length, 1, `one attachment, got ${saved.join(', ')}`);
  poppler('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', file, path.join(artifacts, name)]);
  return {
    text: poppler('pdftotext', ['-layout', file, '-']),
    list: poppler('pdfdetach', ['-list', file]),
    bundle: readFileSync(path.join(out, saved[0]!)),
    images: poppler('pdfimages', ['-list', file]).trim().split('\n').length - 2,
  };
}

for (const kind of kinds) {
  describe(`attestation PDF on bcoin regtest, ${kind.name} store`, { skip: kind.skip }, () => {
    let f: AnchoringFixture;
    let app: FastifyInstance;
    let deps: AppDeps;
    let guarded: AppDeps;
    let auth: { authorization: string };
    let logo: Awaited<ReturnType<typeof logoServer>>;
    let frId: string;

    before(async () => {
      logo = await logoServer();
      f = await startAnchoring(kind);
      const store = f.s.withJobs(() => f.jobs);
      const identity = { secretKey: 'i'.repeat(40), publicUrl: 'https://id.proofseal.example.com' };
      const identityDeps = { store, clock: { now: Date.now }, random: f.deps.random, identity };
      await createIdentityKey(identityDeps, { name: 'platform', identity: { commonName: 'proofseal platform' } });
      const signer = localSigner(identityDeps);
      const platformSigner = { signer, inProcess: signer.on, issuerDomain: 'example.com' };
      const service = (allowPrivateUrls: boolean) => ({
        renderer: pdfAttestationRenderer(),
        images: cachedBrandImages(createSafeFetch({ allowPrivateUrls })),
        publicUrl: PUBLIC_URL,
        serviceName: 'proofseal',
      });
      deps = testDeps(store, {
        chain: f.chain,
        jobs: f.jobs,
        platformSigner,
        attestation: service(true),
        transparency: { origin: LOG_ORIGIN },
      });
      guarded = { ...deps, attestation: service(false) };
      app = await testApp(store, { deps, config: testConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' }) });
      const account = await createAccount(deps, {
        email: 'owner@example.com',
        password: 'correct horse battery',
        firstName: 'Hélène',
        lastName: 'Dupré',
      });
      auth = { authorization: `Bearer ${(await createApiToken(deps, { accountId: account.id })).token}` };
    });
    after(async () => {
      await app?.close();
      await f?.close();
      logo?.server.close();
    });

    const attestation = (id: string) =>
      app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/attestation`, headers: auth });

    async function signedRequest(name: string, lang: string, vars: Record<string, string>) {
      const hashToSign = createHash('sha256').update(`${name} ${Date.now()}`).digest('hex');
      const signers = [
        { commonName: 'Élodie Français', email: 'elodie@example.com' },
        { commonName: 'Zoë Brontë', email: 'zoe@example.com' },
      ];
      const payload = { name, hashToSign, fileName: 'bail-signé.pdf', lang, vars, authorizedSignees: signers };
      const created = await app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: auth, payload });
      assert.equal(created.statusCode, 200, created.body);
      const id = created.json<{ id: string }>().id;
      assert.equal((await attestation(id)).json<{ code: string }>().code, 'ATTESTATION_NOT_AVAILABLE');
      const stored = (await deps.store.signatureRequests.findById(id))!;
      for (const s of stored.signers) {
        const url = `/v1/signatureRequest/${id}/delegate`;
        const res = await app.inject({ method: 'POST', url, payload: { signeeId: signerSecretOf(deps, s) } });
        assert.equal(res.statusCode, 200, res.body);
      }
      assert.equal(await sealAuditTrail(deps, { requestId: id }), 'sealed');
      return { id, hashToSign };
    }

    it('409 before, 202 while unconfirmed, then a kept PDF that poppler reads, with the bundle inside', async () => {
      const en = await signedRequest('Lease of the flat', 'en', { serviceLogoURL: logo.url, brandColor1: '#7a1f5c' });
      frId = (await signedRequest('Bail de l’appartement', 'fr', { serviceLogoURL: logo.url })).id;
      const openapi = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
        paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
      }>();
      const documented = openapi.paths['/v1/signatureRequest/{id}/attestation']?.get?.responses;
      assert.ok(documented?.['200']?.content?.['application/pdf'], 'the OpenAPI document has the PDF response');
      assert.ok(documented?.['202'] && documented['409'], 'and the 202 and 409 answers');
      const pending = await attestation(en.id);
      assert.deepEqual([pending.statusCode, pending.json<{ code: string }>().code], [202, 'ATTESTATION_PENDING']);

      // The sequencer (every 2 s) logs the anchors long before a batch closes.
      while ((await sequenceLog({ ...deps, transparency: { origin: LOG_ORIGIN } })).more);
      await closeBatch(f.deps, { maxSize: 1000 });
      const txid = (await sendBatches(f.deps)).sent[0]!;
      await until(() => f.chain.isInMempool(txid), `${txid} in the mempool`);
      await f.node.mine(6);
      await confirmBatches(f.deps);
      assert.equal(await completeProofBundles(deps, { limit: 10 }), 2);
      assert.ok(
        f.jobs.sent.some(
          (j) => j.name === PRODUCE_ATTESTATION && (j.data as { requestId?: string }).requestId === en.id,
        ),
      );

      const res = await attestation(en.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(logo.hits(), 1, 'the logo was fetched once');
      const again = await attestation(en.id);
      assert.ok(again.rawPayload.equals(res.rawPayload), 'the kept PDF is served again, byte for byte');

      // The PDF goes to everyone: it attaches the sharing link's bundle (no openings), byte for byte.
      const url = `/v1/signatureRequest/${en.id}/shared/${deriveSharingToken(deps.secretKey, en.id)}/proofbundle`;
      const served = await app.inject({ method: 'GET', url });
      assert.equal(served.statusCode, 200);
      const read = readWithPoppler(res.rawPayload, `attestation-${kind.name}-en`);
      assert.match(read.list, new RegExp(`proof-bundle-${en.id}\\.json`));
      assert.ok(read.bundle.equals(served.rawPayload), "the attached bundle is what the sharing link's serves");
      assert.equal(JSON.parse(read.bundle.toString('utf8')).auditTrailData.format, 2, 'the committed trail');
      const bundle = JSON.parse(read.bundle.toString('utf8')) as {
        signatureReceipts: ReceiptLike[];
        auditTrailReceipt: ReceiptLike;
      };
      const rpc = (method: string, params: unknown[]) => f.chain.call(method, params);
      for (const receipt of [...bundle.signatureReceipts, bundle.auditTrailReceipt]) {
        const checked = await verifyReceiptIndependently(receipt, rpc);
        assert.deepEqual([checked.proofValid, checked.signature, checked.tx], [true, 'VERIFIED', 'FOUND']);
      }
      // And the transparency log's proofs of the three anchors, under the log's key (docs/transparency-log.md).
      const vkey = parseVerifierKey((await loadLogKey({ ...deps, transparency: { origin: LOG_ORIGIN } })).verifierKey);
      const log = (bundle as { transparencyLog?: BundleLogProofs }).transparencyLog!;
      const c = openCheckpoint(log.checkpoint, vkey);
      const logged = [...log.signatures, log.auditTrail].map((p, i) =>
        checkBundleInclusion(p, [...bundle.signatureReceipts, bundle.auditTrailReceipt][i] as ReceiptForLog, c),
      );
      assert.deepEqual(
        logged.map((l) => l.ok),
        [true, true, true],
        JSON.stringify(logged),
      );
      // And the request's signing events: each signature's SIGNED, then COMPLETED, in the same checkpoint.
      const events = checkBundleEvents(log.events, c, {
        signatures: logged.slice(0, -1).map((l) => (l.ok ? l.entry : null)),
        requestId: en.id,
      });
      assert.deepEqual(
        events.map((e) => (e.ok ? [e.entry.event, e.signature] : e.reason)),
        [
          ['SIGNED', 0],
          ['SIGNED', 1],
          ['COMPLETED', null],
        ],
      );
      for (const words of ['Signature attestation', 'Lease of the flat', en.hashToSign, 'Hélène Dupré', txid])
        assert.ok(read.text.includes(words), `the text shows ${words}`);
      for (const words of ['Élodie Français', 'Zoë Brontë', 'delegated to the platform', PUBLIC_URL])
        assert.ok(read.text.includes(words), `the text shows ${words}`);
      // The evidence document names each signer by the address they were reached at ("Who sees what").
      for (const email of ['elodie@example.com', 'zoe@example.com'])
        assert.ok(read.text.includes(email), `the PDF names the signer's ${email}`);
      assert.equal(read.images, 1, 'the logo is drawn');
      // One wording of time with the verifiers: the request as a whole, no later than its latest block.
      const block = (await f.chain.getRawTransaction(txid))!;
      const height = (await f.chain.getBlockHeader(block.blockHash!))!.height;
      assert.match(
        read.text.replace(/\s+/g, ' '),
        new RegExp(
          `proven no later than .+, the time of block ${height}, the latest block its proofs need \\(1 Bitcoin transaction\\)`,
        ),
      );
      assert.ok(
        !read.text.includes('pdfdetach -saveall attestation.pdf'),
        'step 1 names no file the reader may not have',
      );
      assert.ok(read.text.replace(/\s+/g, ' ').includes('proofseal verify <document> <this PDF> --headers FILE'));
      assert.ok(read.text.includes(sharingPath(deps.secretKey, en.id).slice(0, 40)));
    });

    it('French with its accents; a logo on an internal address is refused and the fallback is drawn', async () => {
      const hitsBefore = logo.hits();
      const pdf = Buffer.from(await attestationPdf(guarded, frId));
      assert.equal(logo.hits(), hitsBefore, 'the guard refused the internal address before any request');
      const read = readWithPoppler(pdf, `attestation-${kind.name}-fr`);
      for (const words of [
        'Attestation de signature',
        'Bail de l’appartement',
        'Journal d’audit',
        'Signée par délégation',
      ])
        assert.ok(read.text.includes(words), `the text shows ${words}`);
      for (const words of ['déléguée à la plateforme', 'logo indisponible', 'Élodie Français', 'État', 'Établie le'])
        assert.ok(read.text.includes(words), `the text shows ${words}`);
      assert.ok(read.text.includes('bail-signé.pdf'));
      assert.match(read.text.replace(/\s+/g, ' '), /prouvée au plus tard le .+, heure du bloc \d+/);
      assert.equal(read.images, 0, 'no logo: the fallback box instead');
    });
  });
}
