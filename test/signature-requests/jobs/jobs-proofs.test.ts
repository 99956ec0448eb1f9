// tier: slow (measured: 10.2 s in a full CI run, over the 10 s bound of the fast tier)
/** Activation and deadline jobs with a controllable clock, the audit-trail seal and the proof bundle, on both stores. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { activateDueRequests } from '../../../src/app/signature-requests/activate-due-requests.js';
import { expireDueRequests } from '../../../src/app/signature-requests/expire-due-requests.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { verifySignedMessage } from '../../../src/core/bitcoin/signed-message.js';
import { confirmInsertedBatch, insertBatch } from '../../support/anchors.js';
import { canonical } from '../../support/canonical-json.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, getRequest, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`signature requests: jobs and proofs on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    benchPerSuite(kind, (opened) => (b = opened));
    const get = (id: string) => getRequest(b, id);

    it('activates at the activation date and expires at the deadline, once', async () => {
      const start = b.clock.now();
      const { id } = await createRequest(b, requestBody({ activation: start + 60_000, deadline: start + 120_000 }));
      assert.equal((await get(id)).state, 'PENDING');
      assert.equal(await activateDueRequests(b.deps, { limit: 100 }), 0);
      b.clock.advance(60_000);
      assert.equal(await activateDueRequests(b.deps, { limit: 100 }), 1);
      assert.equal(await activateDueRequests(b.deps, { limit: 100 }), 0);
      assert.equal((await get(id)).state, 'IN_PROGRESS');
      assert.equal(await expireDueRequests(b.deps, { limit: 100 }), 0);
      b.clock.advance(60_000);
      assert.equal(await expireDueRequests(b.deps, { limit: 100 }), 1);
      assert.equal(await expireDueRequests(b.deps, { limit: 100 }), 0);
      assert.equal((await get(id)).state, 'EXPIRED');
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.deepEqual(
        trail.auditEvents.map((e: { type: string; actor: string }) => `${e.type}:${e.actor}`),
        ['CREATED:owner@example.com', 'ACTIVATED:platform', 'EXPIRED:platform'],
      );
    });

    it('seals the trail of a COMPLETED request, and the bundle is complete once every receipt is CONFIRMED', async () => {
      const { id, signeeIds } = await createRequest(b, requestBody({ callbackURL: 'https://hooks.example.com/x' }));
      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'skipped');
      const request = await get(id);
      assert.ok(request.auditTrailAnchorId);
      let res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth });
      assert.equal(res.statusCode, 202);
      const partial = res.json();
      assert.equal(partial.complete, false);
      assert.deepEqual(partial.auditTrailData.auditContext, { id, name: 'Contract', hashToSign: request.hashToSign });
      const trailHash = createHash('sha256').update(canonical(partial.auditTrailData)).digest('hex');
      const trailAnchor = (
        await b.app.inject({ method: 'GET', url: `/v1/anchor/${request.auditTrailAnchorId}`, headers: b.auth })
      ).json();
      assert.equal(trailAnchor.signedHash, trailHash, "the anchor signs the trail (its hash is the signature's)");
      assert.ok(verifySignedMessage(trailHash, trailAnchor.signature, trailAnchor.pubKey).ok);

      const store = b.s.db;
      const batch = await insertBatch(store, [...request.anchors, request.auditTrailAnchorId], { status: 'SENT' });
      assert.equal(await completeProofBundles(b.deps, { limit: 100 }), 0);
      await confirmInsertedBatch(store, batch);
      assert.equal(await completeProofBundles(b.deps, { limit: 100 }), 1);
      assert.equal(await completeProofBundles(b.deps, { limit: 100 }), 0);
      res = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/proofbundle?signeeId=${signeeIds[0]}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      const bundle = res.json();
      assert.equal(bundle.complete, true);
      assert.equal(bundle.signatureReceipts.length, 2);
      assert.equal(bundle.auditTrailReceipt.signature.signedHash, trailHash);
      assert.equal((await get(id)).proofBundleComplete, true);
      const callbacks = b.jobs.sent.filter(
        (j) => j.name === 'callback.deliver' && (j.data as { resource?: { id: string } }).resource?.id === id,
      );
      const reasons = callbacks.map((j) => (j.data as { messageId: string }).messageId.split('_')[3]);
      assert.deepEqual(reasons, ['state', 'signature', 'signature', 'state', 'proofBundle']);
    });
  });
}
