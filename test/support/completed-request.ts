/**
 * A signature request taken to COMPLETED on the real regtest node, as the end-to-end tests need one: created over
 * the API with two signers, both signing (delegated), its audit trail sealed, the batch closed, sent, mined six
 * deep and confirmed, and its proof bundle completed.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { closeBatch } from '../../src/app/anchoring/close-batch.js';
import { confirmBatches } from '../../src/app/anchoring/confirm-batches.js';
import { sendBatches } from '../../src/app/anchoring/send-batches.js';
import type { AppDeps } from '../../src/app/shared/deps.js';
import { sealAuditTrail } from '../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../src/app/signature-requests/proof-bundle.js';
import { signerSecretOf } from '../../src/app/signature-requests/signer-secrets.js';
import { until, type AnchoringFixture } from './anchoring-fixture.js';

/** The request's id, how many anchors its batch closed with (two signatures and the audit trail), its transaction. */
export async function completedRequest(o: {
  f: AnchoringFixture;
  app: FastifyInstance;
  deps: AppDeps;
  auth: { authorization: string };
  hashToSign: string;
}): Promise<{ id: string; anchorCount: number; txid: string }> {
  const { f, app, deps } = o;
  const signers = [1, 2].map((n) => ({ commonName: `Signer ${n}`, email: `signer${n}@example.com` }));
  const created = await app.inject({
    method: 'POST',
    url: '/v1/signatureRequest',
    headers: o.auth,
    payload: { name: 'Lease', hashToSign: o.hashToSign, authorizedSignees: signers },
  });
  assert.equal(created.statusCode, 200, created.body);
  const id = created.json<{ id: string }>().id;
  for (const s of (await deps.store.signatureRequests.findById(id))!.signers) {
    const res = await app.inject({
      method: 'POST',
      url: `/v1/signatureRequest/${id}/delegate`,
      payload: { signeeId: signerSecretOf(deps, s) },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  assert.equal(await sealAuditTrail(deps, { requestId: id }), 'sealed');
  const closed = (await closeBatch(f.deps, { maxSize: 1000 }))!;
  const txid = (await sendBatches(f.deps)).sent[0]!;
  await until(() => f.chain.isInMempool(txid), `${txid} in the mempool`);
  await f.node.mine(6);
  await confirmBatches(f.deps);
  assert.equal(await completeProofBundles(deps, { limit: 10 }), 1);
  return { id, anchorCount: closed.anchorCount, txid };
}
