/** Signing with an SMS one-time password (codes read from the SMS outbox, as in the default run), on both stores. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, otpSigner, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`signature requests: OTP on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    const latestCode = async () => {
      const [sms] = await listSmsOutbox(b.deps, { limit: 1 });
      assert.ok(sms?.body);
      assert.equal(sms.to, '+33612345678');
      return /^(\d{6})/.exec(sms.body)![1]!;
    };

    it('requires the code, refuses a wrong one, signs with the right one, and records OTP_SENT and OTP_AUTH', async () => {
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ authorizedSignees: [otpSigner], vars: { serviceName: 'Acme' } }),
      );
      const missing = await delegate(b, id, signeeIds[0]!);
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().code, 'OTP_REQUIRED');
      const sent = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeIds[0]}` });
      assert.equal(sent.statusCode, 200, sent.body);
      const code = await latestCode();
      const again = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeIds[0]}` });
      assert.equal(again.statusCode, 429);
      assert.equal(again.json().code, 'OTP_TOO_SOON');
      const wrong = await delegate(b, id, signeeIds[0]!, code === '000000' ? '111111' : '000000');
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'OTP_INVALID');
      const ok = await delegate(b, id, signeeIds[0]!, code);
      assert.equal(ok.statusCode, 200, ok.body);
      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      assert.deepEqual(
        trail.auditEvents.map((e: { type: string }) => e.type),
        ['CREATED', 'ACTIVATED', 'OTP_SENT', 'OTP_AUTH', 'DELEGATE', 'COMPLETED'],
      );
    });

    it('refuses an OTP to a signer who needs none, with the one 404 for a wrong signeeId', async () => {
      const { id, signeeIds } = await createRequest(b);
      const none = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeIds[0]}` });
      assert.equal(none.statusCode, 400);
      const wrong = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${'B'.repeat(43)}` });
      assert.equal(wrong.statusCode, 404);
    });
  });
}
