// tier: slow (measured: 15.3 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Issue 22 §2, on both stores: a signer who is done (signed, or declined) learns so before any one-time
 * password check (409, not OTP_REQUIRED / OTP_INVALID); the signer events of `POST …/event` are recorded in
 * the audit trail; SIGN_REFUSED declines: no signature, code or second decline after it, the requester and
 * the watchers are mailed (a real SMTP server), the request stays IN_PROGRESS, the signer's view says when,
 * and the sealed trail commits to the reason (the owner opens it; the sharing link never holds it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listSmsOutbox } from '../../../src/app/sms/list-sms-outbox.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { SIGNER_EVENT_TYPES } from '../../../src/core/signature-requests/audit-trail.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { TEST_SECRET_KEY } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import { deliverQueued, mailBenchPerSuite, sent } from '../../support/workflow-mail.js';
import type { TestSmtp } from '../../support/smtp.js';
import { createRequest, delegate, getRequest, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();
const OTP_SIGNER = {
  commonName: 'Olga',
  email: 'olga@example.com',
  countryCallingCode: '33',
  phone: '612345678',
  requiresOTP: true,
};
const WATCHER = { email: 'watcher@example.com', commonName: 'Wendy Watcher' };
const REASON = 'Le montant page 2 est faux — 1 200 € et non 12 000 €';

for (const kind of kinds) {
  describe(`signer events and declines on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    mailBenchPerSuite(kind, (opened) => ({ b, smtp } = opened));

    const event = (id: string, payload: Record<string, unknown>) =>
      b.app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/event`, payload });
    const askCode = (id: string, signeeId: string) =>
      b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/otp/${signeeId}` });
    const trailOf = async (id: string) =>
      (await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })).json()
        .auditEvents as { type: string; comment?: string }[];
    const latestCode = async () => {
      const [sms] = await listSmsOutbox(b.deps, { limit: 1 });
      return /^(\d{6})/.exec(sms!.body ?? '')![1]!;
    };

    it('an OTP signer who signed gets 409 ALREADY_SIGNED from delegate (with or without a code) and a new code', async () => {
      const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: [OTP_SIGNER, signer(2)] }));
      const olga = signeeIds[0]!;
      assert.equal((await askCode(id, olga)).statusCode, 200);
      const code = await latestCode();
      assert.equal((await delegate(b, id, olga, code)).statusCode, 200);
      for (const res of [await delegate(b, id, olga), await delegate(b, id, olga, '000000'), await askCode(id, olga)]) {
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().code, 'ALREADY_SIGNED');
      }
      await deliverQueued(b, smtp);
    });

    it('records each signer event with its comment, and the signer still signs after the non-decline ones', async () => {
      const { id, signeeIds } = await createRequest(b);
      const kept = SIGNER_EVENT_TYPES.filter((t) => t !== 'SIGN_REFUSED');
      for (const type of kept) {
        const res = await event(id, { signeeId: signeeIds[0], type, comment: `about ${type}` });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { recorded: true });
      }
      const mine = (await trailOf(id)).filter((e) => (SIGNER_EVENT_TYPES as readonly string[]).includes(e.type));
      assert.deepEqual(
        mine.map((e) => [e.type, e.comment]),
        kept.map((t) => [t, `about ${t}`]),
      );
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200, 'TCU_REFUSED and the like do not decline');
      await deliverQueued(b, smtp);
    });

    it('a decline: 409 on sign, delegate, code and a second decline; mails; IN_PROGRESS; declinedOn; sealed reason', async () => {
      const body = requestBody({ authorizedSignees: [OTP_SIGNER, signer(2)], watchers: [WATCHER] });
      const { id, signeeIds } = await createRequest(b, body);
      const [olga, two] = signeeIds as [string, string];
      assert.equal((await getRequest(b, id)).state, 'IN_PROGRESS');
      await deliverQueued(b, smtp);

      const before = b.clock.now();
      const declined = await event(id, { signeeId: olga, type: 'SIGN_REFUSED', comment: REASON });
      assert.equal(declined.statusCode, 200, declined.body);
      for (const res of [
        await delegate(b, id, olga),
        await delegate(b, id, olga, '123456'),
        await askCode(id, olga),
        await event(id, { signeeId: olga, type: 'SIGN_REFUSED', comment: 'again' }),
        await b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/sign`,
          payload: { signeeId: olga, signature: 'x', pubKey: 'y' },
        }),
      ]) {
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().code, 'ALREADY_DECLINED');
      }

      const mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), [
        'signatureFeedbackRequesterEmail → owner@example.com',
        'signatureFeedbackRequesterEmail → watcher@example.com',
      ]);
      for (const m of mails) {
        assert.equal(m.mail.subject, 'Olga declined to sign "Contract"', 'the subject says the signer declined');
        assert.match(m.mail.text ?? '', /A signer declined to sign/);
        assert.match(m.mail.text ?? '', /Olga \(olga@example\.com\) declined to sign "Contract"\./);
        assert.ok(
          (m.mail.text ?? '').includes(`Reason given: ${REASON}`),
          'the reason reaches the requester and the watcher',
        );
        assert.doesNotMatch(m.mail.text ?? '', /Feedback from|wrote about/, 'not worded as plain feedback');
      }
      const textTo = (address: string) => mails.find((m) => m.to === address)?.mail.text ?? '';
      const [toOwner, toWatcher] = [textTo('owner@example.com'), textTo('watcher@example.com')];
      assert.match(toOwner!, /You can close it to keep the signatures made and seal its audit trail, or cancel it/);
      assert.match(toWatcher!, /the requester may close or cancel it/);
      assert.doesNotMatch(toWatcher!, /You can close it/, 'a watcher is not told to do what only the requester can');

      const ownerJson = await getRequest(b, id);
      const declinedSigner = ownerJson.authorizedSignees.find((s: { commonName: string }) => s.commonName === 'Olga');
      assert.ok(declinedSigner.declinedOn >= before, "the owner's view says when the signer declined");
      assert.equal(declinedSigner.declineReason, REASON, "and the reason, in the owner's view");
      assert.equal(ownerJson.authorizedSignees[1].declinedOn, undefined);

      const view = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${olga}` });
      assert.equal(view.statusCode, 200, view.body);
      const own = view.json().authorizedSignees[0];
      assert.ok(own.declinedOn >= before, 'the signer sees when it declined');
      assert.equal(own.declineReason, REASON, 'and its own reason');
      assert.equal(own.signedOn, undefined);
      const other = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${two}` });
      assert.equal(other.json().authorizedSignees[0].declinedOn, undefined, 'another signer has not declined');

      assert.equal((await delegate(b, id, two)).statusCode, 200, 'the other signer still signs');
      const afterSign = await event(id, { signeeId: two, type: 'SIGN_REFUSED' });
      assert.equal(afterSign.statusCode, 409);
      assert.equal(afterSign.json().code, 'ALREADY_SIGNED');
      assert.equal((await getRequest(b, id)).state, 'IN_PROGRESS', 'left open for its owner to cancel or close');
      const trail = await trailOf(id);
      assert.deepEqual(
        trail.filter((e) => e.type === 'SIGN_REFUSED').map((e) => e.comment),
        [REASON],
      );

      const close = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: JSON.stringify('CLOSED'),
      });
      assert.equal(close.statusCode, 200, close.body);
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const owner = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth })
      ).json();
      const sealedIndex = owner.auditTrailData.auditEvents.findIndex(
        (e: { type: string }) => e.type === 'SIGN_REFUSED',
      );
      const sealed = owner.auditTrailData.auditEvents[sealedIndex];
      assert.equal(sealed.comment, undefined, 'the reason is not published');
      assert.match(sealed.message, /^[0-9a-f]{64}$/, 'the reason is committed');
      const opening = owner.auditTrailOpenings.find(
        (o: { event: number; field: string }) => o.event === sealedIndex && o.field === 'message',
      );
      assert.equal(opening?.value, REASON, 'the owner opens it');
      const token = deriveSharingToken(TEST_SECRET_KEY, id);
      const shared = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}/shared/${token}/proofbundle`,
      });
      assert.ok(!shared.body.includes('montant'), 'the sharing link never holds the reason');
      await deliverQueued(b, smtp);
    });

    it('refuses a wrong signeeId (404), a bad type (400), a request not IN_PROGRESS (403), and floods (429)', async () => {
      const { id, signeeIds } = await createRequest(b);
      const wrong = await event(id, { signeeId: 'B'.repeat(43), type: 'SIGN_REFUSED' });
      assert.equal(wrong.statusCode, 404);
      const other = await createRequest(b);
      const foreign = await event(id, { signeeId: other.signeeIds[0], type: 'DATA_REVIEWED' });
      assert.equal(foreign.statusCode, 404, "another request's signer is nobody here");
      const bad = await event(id, { signeeId: signeeIds[0], type: 'SIGNED' });
      assert.equal(bad.statusCode, 400);
      const long = await event(id, { signeeId: signeeIds[0], type: 'SIGN_REFUSED', comment: 'x'.repeat(2001) });
      assert.equal(long.statusCode, 400);
      const draft = await createRequest(b, requestBody({ state: 'DRAFT' }));
      const closed = await event(draft.id, { signeeId: draft.signeeIds[0], type: 'SIGN_REFUSED' });
      assert.equal(closed.statusCode, 403);
      assert.equal(closed.json().code, 'SIGNING_CLOSED');
      for (let i = 0; i < 10; i++)
        assert.equal((await event(id, { signeeId: signeeIds[1], type: 'DATA_REVIEWED' })).statusCode, 200);
      const flood = await event(id, { signeeId: signeeIds[1], type: 'DATA_REVIEWED' });
      assert.equal(flood.statusCode, 429);
      assert.ok(Number(flood.headers['retry-after']) > 0);
      const trail = await trailOf(id);
      assert.equal(trail.filter((e) => e.type === 'SIGN_REFUSED').length, 0, 'nothing written by a refused call');
      await deliverQueued(b, smtp);
    });
  });
}
