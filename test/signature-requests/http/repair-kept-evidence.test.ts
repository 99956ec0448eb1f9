// tier: slow (PDF rendering on both stores)
/**
 * Kept evidence that lacks SPV data (issue 31): an attestation kept before the jobs had the node is found by the
 * bundle it carries and made again by `proofseal attestations repair`, with its mail queued again; a batch
 * confirmed before its header was stored (migration 033) holds back the attestation until a worker stores it,
 * never keeping a weaker one.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { pdfAttachmentReader } from '../../../src/adapters/pdf/pdf-attachment-reader.js';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { cachedBrandImages } from '../../../src/adapters/pdf/brand-images.js';
import { fillBlockHeaders } from '../../../src/app/anchoring/confirm-batches.js';
import type { ChainPort } from '../../../src/app/anchoring/chain.port.js';
import { attestationContent } from '../../../src/app/signature-requests/attestation/attestation-content.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import {
  completeProofBundles,
  getProofBundle,
  proofBundleJson,
  type ProofBundle,
} from '../../../src/app/signature-requests/proof-bundle.js';
import { attestationsCommand } from '../../../src/cli/attestations-command.js';
import { proofBundleAmong } from '../../../src/core/documents/signed-copy.js';
import { insertBatch } from '../../support/anchors.js';
import { testConfig } from '../../support/fixtures.js';
import { MAIL } from '../../support/workflow-mail.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`kept evidence without SPV data on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    const attestation = {
      renderer: pdfAttestationRenderer(),
      images: cachedBrandImages(createSafeFetch({ allowPrivateUrls: false })),
      publicUrl: 'https://proofseal.example.com',
      serviceName: 'proofseal',
    };
    before(async () => {
      b = await openBench(kind, { attestation, mail: MAIL }, { config: testConfig({}) });
    });
    after(async () => b?.close());

    const get = (url: string) => b.app.inject({ method: 'GET', url, headers: b.auth });
    const bundleIn = async (pdf: Uint8Array) =>
      proofBundleAmong(await pdfAttachmentReader().embeddedFiles(pdf)) as ProofBundle;
    const attestationMails = async (id: string) =>
      Number(
        (
          await b.s.db.query<{ n: string }>(
            `SELECT count(*) AS n FROM email WHERE type = 'signatureAttestationEmail' AND request_id = $1`,
            [id],
          )
        )[0]!.n,
      );

    /** A COMPLETED request whose proofs are confirmed in one batch (with its block data) and whose bundle is complete. */
    async function completed(): Promise<{ id: string; batchId: string }> {
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ hashToSign: createHash('sha256').update(`lease ${Math.random()}`).digest('hex') }),
      );
      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const anchors = [...request.signers.map((s) => s.anchorId!), request.auditTrailAnchorId!];
      const batch = await insertBatch(b.s.db, anchors, { status: 'CONFIRMED', confirmations: 6 });
      assert.equal(await completeProofBundles(b.deps, { limit: 100 }), 1);
      return { id, batchId: batch.id };
    }

    it('a batch without its stored header holds the attestation back until a worker stores it', async () => {
      const { id, batchId } = await completed();
      const header = (await b.deps.store.batches.confirmationProof(batchId))!.blockHeader!;
      await b.s.db.query('UPDATE batch SET block_header = NULL WHERE id = $1', [batchId]);
      const pending = await get(`/v1/signatureRequest/${id}/attestation`);
      assert.equal(pending.statusCode, 202, pending.body);
      assert.equal(pending.json().code, 'ATTESTATION_PENDING');
      assert.match(pending.json().message, /SPV data of transaction [0-9a-f]{64} are not stored yet/);
      assert.equal(await b.deps.store.attestations.find(id), null, 'nothing kept meanwhile');

      const asked: string[] = [];
      const chain = {
        getBlockHeaderHex: async (hash: string) => (asked.push(hash), header),
      } as unknown as ChainPort;
      assert.ok((await fillBlockHeaders({ store: b.deps.store, chain })) >= 1);
      assert.ok(asked.length >= 1);
      assert.equal((await b.deps.store.batches.confirmationProof(batchId))!.blockHeader, header);
      const made = await get(`/v1/signatureRequest/${id}/attestation`);
      assert.equal(made.statusCode, 200, made.body);
      const carried = await bundleIn(made.rawPayload);
      assert.equal(carried.bitcoinSpv?.length, 1);
      assert.equal(carried.bitcoinSpv?.[0]?.blockHeader, header);
    });

    it('`attestations` lists a kept attestation without SPV data; `attestations repair` makes it again and mails it', async () => {
      const { id } = await completed();
      // What the jobs kept before the fix: the attestation of the bundle without its SPV data.
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const { bitcoinSpv, ...weaker } = await getProofBundle(b.deps, request);
      assert.equal(bitcoinSpv?.length, 1);
      const model = await attestationContent(
        { ...b.deps, attestation: b.deps.attestation! },
        request,
        weaker,
        proofBundleJson(weaker),
      );
      assert.ok(await b.deps.store.attestations.save(id, await attestation.renderer.render(model), Date.now()));
      const mailsBefore = await attestationMails(id);

      const deps = { ...b.deps, pdfAttachments: pdfAttachmentReader() };
      const listed: string[] = [];
      await attestationsCommand(deps, [], (l) => listed.push(l));
      const line = listed.find((l) => l.startsWith(id));
      assert.ok(line, listed.join('\n'));
      assert.match(line, new RegExp(`attestation without the SPV data of ${bitcoinSpv![0]!.txid}`));

      const json: string[] = [];
      await attestationsCommand(deps, ['--json'], (l) => json.push(l));
      assert.deepEqual(
        (JSON.parse(json[0]!) as { requestId: string; files: string[] }[]).find((g) => g.requestId === id)?.files,
        ['attestation'],
      );

      const repaired: string[] = [];
      await attestationsCommand(deps, ['repair'], (l) => repaired.push(l));
      assert.ok(
        repaired.some((l) => l.startsWith(`${id}  repaired`)),
        repaired.join('\n'),
      );
      const kept = (await b.deps.store.attestations.find(id))!;
      assert.deepEqual((await bundleIn(kept)).bitcoinSpv, bitcoinSpv);
      assert.ok(mailsBefore > 0);
      assert.equal(await attestationMails(id), 2 * mailsBefore, 'the attestation mails are queued again, once each');

      const after: string[] = [];
      await attestationsCommand(deps, [], (l) => after.push(l));
      assert.ok(!after.some((l) => l.startsWith(id)), after.join('\n'));
    });

    it('refuses other arguments with its usage', async () => {
      const deps = { ...b.deps, pdfAttachments: pdfAttachmentReader() };
      await assert.rejects(
        attestationsCommand(deps, ['fix'], () => undefined),
        /usage: proofseal attestations/,
      );
    });
  });
}
