/**
 * The mails others make the service send are limited, on both stores: a manual reminder at most once an
 * hour per signer (429 RATE_LIMITED with Retry-After), a signer's feedback 3 an hour per signer and 10 per
 * request, and no feedback once the request is final (403 SIGNING_CLOSED).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { benchPerSuite } from '../../support/bench-suite.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();
const MINUTE = 60_000;

for (const kind of kinds) {
  describe(`mail limits of signature requests on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    benchPerSuite(kind, (opened) => (b = opened));
    const remind = (id: string, emails: string[]) =>
      b.app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/remind`, headers: b.auth, payload: emails });
    const feedback = (id: string, signeeId: string) =>
      b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/feedback`,
        payload: { signeeId, subject: 'Question', message: 'Clause 3?' },
      });
    const count = async (id: string, type: string) =>
      (await b.deps.store.signatureRequests.events(id)).filter((e) => e.type === type).length;

    it('reminds a signer at most once an hour: a named list is all or nothing, the empty list skips who was reminded', async () => {
      const body = requestBody({ authorizedSignees: [signer(1), signer(2), signer(3)] });
      const { id } = await createRequest(b, body);
      assert.deepEqual((await remind(id, [])).json().reminded, [
        'signer1@example.com',
        'signer2@example.com',
        'signer3@example.com',
      ]);
      for (let i = 0; i < 20; i++) {
        const again = await remind(id, ['signer1@example.com']);
        assert.equal(again.statusCode, 429);
        assert.equal(again.json().code, 'RATE_LIMITED');
        assert.equal(again.headers['retry-after'], '3600');
      }
      b.clock.advance(30 * MINUTE);
      const all = await remind(id, []);
      assert.equal(all.statusCode, 429, 'nobody may be reminded yet');
      assert.equal(all.headers['retry-after'], '1800');
      assert.equal(await count(id, 'REMINDED'), 3, 'the refused calls reminded nobody');

      b.clock.advance(31 * MINUTE);
      assert.deepEqual((await remind(id, ['signer1@example.com'])).json().reminded, ['signer1@example.com']);
      b.clock.advance(MINUTE);
      const mixed = await remind(id, ['signer1@example.com', 'signer2@example.com']);
      assert.equal(mixed.statusCode, 429, 'signer1 was reminded a minute ago: the named list reminds nobody');
      assert.equal(mixed.headers['retry-after'], String(59 * 60));
      assert.equal(await count(id, 'REMINDED'), 4);
      assert.deepEqual((await remind(id, [])).json().reminded, ['signer2@example.com', 'signer3@example.com']);
      assert.equal(await count(id, 'REMINDED'), 6);
    });

    it('limits feedback to 3 an hour per signer and 10 per request, and refuses it once the request is final', async () => {
      const body = requestBody({ authorizedSignees: [1, 2, 3, 4].map(signer) });
      const { id, signeeIds } = await createRequest(b, body);
      const [s1, s2, s3, s4] = signeeIds as [string, string, string, string];
      for (let i = 0; i < 3; i++) assert.equal((await feedback(id, s1)).statusCode, 200);
      const fourth = await feedback(id, s1);
      assert.equal(fourth.statusCode, 429);
      assert.equal(fourth.json().code, 'RATE_LIMITED');
      assert.equal(fourth.headers['retry-after'], '3600');
      b.clock.advance(10 * MINUTE);
      for (const s of [s2, s2, s2, s3, s3, s3, s4]) assert.equal((await feedback(id, s)).statusCode, 200);
      const capped = await feedback(id, s4);
      assert.equal(capped.statusCode, 429, 'ten feedbacks on the request this hour');
      assert.equal(capped.headers['retry-after'], String(50 * 60), "when s1's first leaves the hour");
      assert.equal(await count(id, 'FEEDBACK'), 10);
      b.clock.advance(50 * MINUTE);
      assert.equal((await feedback(id, s1)).statusCode, 200, 'the hour slid past the first three');

      for (const s of signeeIds) assert.equal((await delegate(b, id, s)).statusCode, 200);
      b.clock.advance(2 * 3_600_000);
      const closed = await feedback(id, s2);
      assert.equal(closed.statusCode, 403);
      assert.equal(closed.json().code, 'SIGNING_CLOSED');
      assert.equal(await count(id, 'FEEDBACK'), 11);
    });
  });
}
