// tier: slow (measured: 16.4 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * A signature request's callbacks, end to end on both stores: queued by the API, run by the job engine
 * (its payload check included), posted to a real HTTP listener on 127.0.0.1, signed as Standard Webhooks
 * with the account's secret, and retried when the receiver fails.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createJobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import { deliverCallbackJob } from '../../../src/jobs/callbacks/deliver-callback.job.js';
import { jobDefinitions } from '../../../src/jobs/index.js';
import { confirmInsertedBatch, insertBatch } from '../../support/anchors.js';
import { silentLog, testApp, testClock, testConfig, testDeps } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { createOwner, platformSignerIn, requestBody, signer } from '../fixture.js';

const kinds = await storeKinds();

interface Received {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** The Standard Webhooks check, written apart from the service's code, as a receiver would. */
function signedWith(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`)
    .digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never came: ${what}`);
}

async function listen(onRequest: (r: Received) => number): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.writeHead(onRequest({ headers: req.headers, body }));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

for (const kind of kinds) {
  describe(`signature request callbacks through the job engine on ${kind.name}`, { skip: kind.skip }, () => {
    it('delivers, signed and retried, a callback at activation, after each signature, at completion and when the bundle is complete', async () => {
      const received: Received[] = [];
      const receiver = await listen((r) => {
        received.push(r);
        return received.length === 1 ? 503 : 204;
      });
      const s = await kind.open();
      const engine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      try {
        await engine.start();
        const store = s.withJobs(engine.sendOn);
        const clock = testClock(Date.now());
        const deps = testDeps(store, {
          clock,
          jobs: engine,
          platformSigner: await platformSignerIn(store, clock),
          // Loopback receivers, as the anchor callback tests allow them (ALLOW_PRIVATE_URLS in production).
          httpClient: createSafeFetch({ allowPrivateUrls: true }),
        });
        const app = await testApp(store, { deps, config: testConfig({ ALLOW_PRIVATE_URLS: 'true' }) });
        const { auth } = await createOwner(deps);
        const callbacks = deliverCallbackJob(deps, { limit: 3, delaySeconds: 1 });
        await engine.declare([...jobDefinitions(deps, { mailer: { send: async () => 'stored' } }), callbacks]);
        await engine.work([callbacks]);

        const body = requestBody({ authorizedSignees: [signer(1), signer(2)], callbackURL: receiver.url });
        const created = await app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: auth, payload: body });
        assert.equal(created.statusCode, 200, created.body);
        const id = created.json().id as string;
        const stored = (await store.signatureRequests.findById(id))!;
        for (const storedSigner of stored.signers) {
          const payload = { signeeId: signerSecretOf(deps, storedSigner) };
          const res = await app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/delegate`, payload });
          assert.equal(res.statusCode, 200, res.body);
        }
        assert.equal(await sealAuditTrail(deps, { requestId: id }), 'sealed');
        const view = (await app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}`, headers: auth })).json();
        const batch = await insertBatch(s.db, [...view.anchors, view.auditTrailAnchorId], { status: 'SENT' });
        await confirmInsertedBatch(s.db, batch);
        assert.equal(await completeProofBundles(deps, { limit: 10 }), 1);

        const ids = () => new Set(received.map((r) => String(r.headers['webhook-id'])));
        await until(() => ids().size === 5 && received.length >= 6, 'five messages, the first one twice');
        const secret = (await app.inject({ method: 'GET', url: '/v1/user/callbackSecret', headers: auth })).json();
        for (const r of received) assert.ok(signedWith(secret.secret, r), `signed: ${String(r.headers['webhook-id'])}`);
        const firstId = String(received[0]!.headers['webhook-id']);
        const byId = new Map(received.map((r) => [String(r.headers['webhook-id']), JSON.parse(r.body)]));
        const reasons = [...byId.keys()].map((k) => k.split('_')[3]).sort();
        assert.deepEqual(reasons, ['proofBundle', 'signature', 'signature', 'state', 'state']);
        const states = [...byId.values()].map((v: { state: string }) => v.state).sort();
        assert.deepEqual(states, ['COMPLETED', 'COMPLETED', 'IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS']);
        assert.ok(received.every((r) => r.body.includes(id) && !r.body.includes('signeeId')));
        const attempts = await store.callbacks.attemptsOf(firstId);
        assert.deepEqual(
          attempts.map((a) => [a.signatureRequestId, a.status]),
          [
            [id, 503],
            [id, 204],
          ],
          'the message the receiver refused was retried with its webhook-id',
        );
        await app.close();
      } finally {
        await engine.stop();
        await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
        await s.destroy();
      }
    });
  });
}
