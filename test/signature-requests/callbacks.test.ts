/** A signature request's callbacks delivered over real HTTP as Standard Webhooks, on both stores. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeFetch } from '../../src/adapters/net/safe-fetch.js';
import type { CallbackJobData } from '../../src/app/callbacks/callback.port.js';
import { deliverCallback } from '../../src/app/callbacks/deliver-callback.js';
import { storeKinds } from '../support/stores.js';
import { createRequest, delegate, openBench, requestBody, signer, type Bench } from './fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`signature request callbacks on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let receiver: http.Server;
    let hookUrl: string;
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];

    before(async () => {
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(204);
          res.end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      b = await openBench(kind, { httpClient: createSafeFetch({ allowPrivateUrls: true }) });
    });
    after(async () => {
      await b?.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    });

    it('posts the request at activation, after the signature and at completion, signed, and records each attempt', async () => {
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ authorizedSignees: [signer(1)], callbackURL: hookUrl }),
      );
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      const messages = b.jobs.sent
        .filter((j) => j.name === 'callback.deliver')
        .map((j) => j.data as CallbackJobData)
        .filter((d) => d.resource?.id === id);
      assert.equal(messages.length, 3);
      for (const m of messages) assert.equal(await deliverCallback(b.deps, m), 'delivered');
      assert.deepEqual(
        received.map((r) => JSON.parse(r.body).state),
        ['IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED'],
      );
      for (const r of received) assert.match(String(r.headers['webhook-signature']), /^v1,/);
      assert.ok(received.every((r) => !r.body.includes('signeeId')));
      const attempts = await b.deps.store.callbacks.attemptsOf(messages[2]!.messageId);
      assert.deepEqual([attempts[0]?.signatureRequestId, attempts[0]?.anchorId, attempts[0]?.status], [id, null, 204]);
    });
  });
}
