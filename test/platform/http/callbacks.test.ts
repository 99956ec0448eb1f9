/** Callback secret and signed callback delivery (Standard Webhooks) to a local receiver, on both stores. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createJobEngine, type JobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { createSafeFetch } from '../../../src/adapters/net/safe-fetch.js';
import { createAccount } from '../../../src/app/accounts/create-account.js';
import type { AppDeps } from '../../../src/app/shared/deps.js';
import { deliverCallback } from '../../../src/app/callbacks/deliver-callback.js';
import { enqueueAnchorCallbacks, type CallbackJobData } from '../../../src/app/anchoring/enqueue-anchor-callbacks.js';
import { createApiToken } from '../../../src/app/accounts/manage-api-tokens.js';
import { deliverCallbackJob } from '../../../src/jobs/callbacks/deliver-callback.job.js';
import { recordingJobs, silentLog, testApp, testConfig, testDeps } from '../../support/fixtures.js';
import { insertBatch, randomHash } from '../../support/anchors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const SECRET_KEY = 'test-secret-key-test-secret-key-0123456789';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** HMAC check written apart from the service's code, as a receiver would. */
function signatureValid(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`)
    .digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

for (const kind of kinds) {
  describe(`callbacks on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    let app: FastifyInstance;
    let deps: AppDeps;
    let receiver: http.Server;
    let hookUrl: string;
    let answer = 200;
    const received: Received[] = [];
    let auth: { authorization: string };

    before(async () => {
      s = await kind.open();
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString('utf8');
        });
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(answer);
          res.end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      deps = testDeps(s.store, {
        httpClient: createSafeFetch({ allowPrivateUrls: true }),
        secretKey: SECRET_KEY,
        jobs: recordingJobs(),
      });
      app = await testApp(s.store, { deps, config: testConfig({ ALLOW_PRIVATE_URLS: 'true' }) });
      const account = await createAccount(deps, { email: 'hooks@example.com', password: 'correct horse battery' });
      auth = { authorization: `Bearer ${(await createApiToken(deps, { accountId: account.id })).token}` };
    });
    after(async () => {
      await app?.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await s?.destroy();
    });

    const secret = async (method: 'GET' | 'PUT') => {
      const res = await app.inject({ method, url: '/v1/user/callbackSecret', headers: auth });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().secret as string;
    };

    it('GET /v1/user/callbackSecret creates the secret once, keeps it sealed; PUT rotates it', async () => {
      const first = await secret('GET');
      assert.match(first, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(await secret('GET'), first);
      const rows = await s.db.query<{ callback_secret_sealed: string }>(
        "SELECT callback_secret_sealed FROM account WHERE email = 'hooks@example.com'",
      );
      assert.match(rows[0]!.callback_secret_sealed, /^v1\./);
      assert.ok(!rows[0]!.callback_secret_sealed.includes(first.slice(6)));
      const rotated = await secret('PUT');
      assert.notEqual(rotated, first);
      assert.equal(await secret('GET'), rotated);
      assert.equal((await app.inject({ method: 'GET', url: '/v1/user/callbackSecret' })).statusCode, 401);
    });

    it('a status change POSTs the anchor, signed as Standard Webhooks; each attempt is recorded; a failure is retried', async () => {
      const withHook = (
        await app.inject({
          method: 'POST',
          url: '/v1/anchor',
          headers: auth,
          payload: { name: 'hooked', hash: randomHash(), callbackURL: hookUrl },
        })
      ).json();
      const without = (
        await app.inject({
          method: 'POST',
          url: '/v1/anchor',
          headers: auth,
          payload: { name: 'quiet', hash: randomHash() },
        })
      ).json();
      const batch = await insertBatch(s.db, [without.id, withHook.id]);
      const jobs = recordingJobs();
      assert.equal(await enqueueAnchorCallbacks({ anchors: s.store.anchors, jobs }, { batchId: batch.id }), 1);
      const data = jobs.sent[0]!.data as CallbackJobData;
      assert.equal(jobs.sent[0]!.name, 'callback.deliver');
      answer = 500;
      await assert.rejects(deliverCallback(deps, data), /DELIVERY|not accepted/);
      answer = 200;
      assert.equal(await deliverCallback(deps, data), 'delivered');
      const [failed, ok] = received.slice(-2) as [Received, Received];
      const current = await secret('GET');
      for (const r of [failed, ok]) {
        assert.equal(r.headers['webhook-id'], data.messageId);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.ok(signatureValid(current, r), 'HMAC-SHA256 over id.timestamp.body with the account secret');
        assert.ok(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
      }
      const body = JSON.parse(ok.body);
      assert.deepEqual([body.id, body.status, body.txId, body.hash], [withHook.id, 'SENT', batch.txId, withHook.hash]);
      const attempts = await s.store.callbacks.attemptsOf(data.messageId);
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.status]),
        [
          [1, 500],
          [2, 200],
        ],
      );
      assert.match(attempts[0]!.error!, /500/);
    });

    it('the deliver job retries with exponential backoff for at least 24 hours', () => {
      const job = deliverCallbackJob(deps);
      assert.equal(job.retryBackoff, true);
      // pg-boss waits at least retryDelay·2^(k-1) before retry k.
      const minimum = Array.from({ length: job.retryLimit }, (_, k) => job.retryDelaySeconds * 2 ** k).reduce(
        (a, b) => a + b,
        0,
      );
      assert.ok(minimum >= 24 * 3600, `${minimum} s`);
    });

    it('delivers through the real job engine (pg-boss)', async () => {
      const engine: JobEngine = createJobEngine(s.db, silentLog, { pollingIntervalSeconds: 0.5 });
      await engine.start();
      try {
        const jobDeps = { ...deps, jobs: engine };
        const defs = [deliverCallbackJob(jobDeps)];
        await engine.declare(defs);
        await engine.work(defs);
        const a = (
          await app.inject({
            method: 'POST',
            url: '/v1/anchor',
            headers: auth,
            payload: { name: 'engine', hash: randomHash(), callbackURL: hookUrl },
          })
        ).json();
        const batch = await insertBatch(s.db, [a.id], {
          status: 'CONFIRMED',
          confirmations: 6,
          blockTime: 1_700_000_000_000,
        });
        const before = received.length;
        assert.equal(
          await enqueueAnchorCallbacks({ anchors: s.store.anchors, jobs: engine }, { batchId: batch.id }),
          1,
        );
        for (let i = 0; i < 100 && received.length === before; i++) await new Promise((r) => setTimeout(r, 100));
        const got = received.at(-1)!;
        assert.equal(JSON.parse(got.body).status, 'CONFIRMED');
        assert.ok(signatureValid(await secret('GET'), got));
      } finally {
        await engine.stop();
      }
    });
  });
}
