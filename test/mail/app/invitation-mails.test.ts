/**
 * What an invitation says about its requester, delivered to a real SMTP server and parsed with mailparser, on
 * both stores: the account's names (else its e-mail, a `requesterName` var winning), the requester's personal
 * message (escaped in HTML), the deadline, and where a reply goes (Reply-To: the requester; the signer for a
 * feedback mail), with no header injected through a name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { replyToOf } from '../../../src/app/mail/sender.js';
import { formatDeadline } from '../../../src/core/mail/mail-context.js';
import type { TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { deliverQueued, mailBenchPerSuite, type Delivered } from '../../support/workflow-mail.js';
import { createRequest, requestBody, signer, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();
const OWNER = 'owner@example.com';

function one(mails: readonly Delivered[], type: string, to: string): ParsedMail {
  const found = mails.find((m) => m.type === type && m.to === to);
  assert.ok(found, `${type} to ${to}`);
  return found.mail;
}

const replyTo = (mail: ParsedMail) => mail.replyTo?.value.map((a) => ({ name: a.name, address: a.address }));

describe('replyToOf', () => {
  it('keeps a plain address and makes the name one line', () => {
    assert.deepEqual(replyToOf('Ann\r\nBcc: x@evil.example', 'ann@example.com'), {
      name: 'Ann Bcc: x@evil.example',
      address: 'ann@example.com',
    });
  });
  it('refuses an address that could add a header or is not one', () => {
    for (const bad of ['ann@example.com\r\nBcc: x@evil.example', 'ann@example.com\n', 'a\u0000@example.com', 'ann'])
      assert.equal(replyToOf('Ann', bad), null, JSON.stringify(bad));
    assert.equal(replyToOf('Ann', null), null);
  });
});

for (const kind of kinds) {
  describe(`invitation mails on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    mailBenchPerSuite(kind, (opened) => ({ b, smtp } = opened));
    const setNames = async (firstName: string, lastName: string) => {
      const res = await b.app.inject({
        method: 'PUT',
        url: '/v1/user',
        headers: b.auth,
        payload: { firstName, lastName },
      });
      assert.equal(res.statusCode, 200, res.body);
    };

    it('an account without names is named by its e-mail, and replies go to it', async () => {
      await createRequest(b, requestBody({ authorizedSignees: [signer(1)] }));
      const invitation = one(await deliverQueued(b, smtp), 'signatureRequestSigneeEmail', 'signer1@example.com');
      assert.equal(invitation.subject, `${OWNER} invites you to sign "Contract"`);
      assert.deepEqual(replyTo(invitation), [{ name: '', address: OWNER }], 'the address alone');
      assert.doesNotMatch(String(invitation.html) + invitation.text, /Message from|Please sign before/);
    });

    it("the account's names, a personal message escaped, the deadline; a requesterName var wins", async () => {
      await setNames('Ann', 'Lee');
      const deadline = b.clock.now() + 10 * 86400_000;
      const message = 'See <b>clause 3</b> & "sign" by Friday';
      const fr = { ...signer(2), lang: 'fr' };
      const { id, signeeIds } = await createRequest(
        b,
        requestBody({ authorizedSignees: [signer(1), fr], deadline, vars: { message } }),
      );
      const mails = await deliverQueued(b, smtp);
      const en = one(mails, 'signatureRequestSigneeEmail', 'signer1@example.com');
      assert.equal(en.subject, 'Ann Lee invites you to sign "Contract"');
      assert.deepEqual(replyTo(en), [{ name: 'Ann Lee', address: OWNER }]);
      const escaped = 'See &lt;b&gt;clause 3&lt;/b&gt; &amp; &quot;sign&quot; by Friday';
      assert.ok(String(en.html).includes(`Message from Ann Lee: ${escaped}`), String(en.html));
      assert.ok(!String(en.html).includes('<b>clause 3</b>'), 'no markup of the requester in the HTML');
      assert.ok(en.text?.includes(`Message from Ann Lee: ${message}`), en.text);
      const when = formatDeadline(deadline);
      assert.ok(String(en.html).includes(`Please sign before ${when}.`) && en.text?.includes(when));
      const french = one(mails, 'signatureRequestSigneeEmail', 'signer2@example.com');
      assert.ok(french.text?.includes(`Message de Ann Lee\u00a0: ${message}`), french.text);
      assert.ok(french.text?.includes(`Merci de signer avant le ${when}.`), french.text);

      assert.equal(
        (await b.app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/remind`, headers: b.auth, payload: [] }))
          .statusCode,
        200,
      );
      const reminder = one(await deliverQueued(b, smtp), 'signatureReminderSigneeEmail', 'signer1@example.com');
      assert.ok(reminder.text?.includes(`Message from Ann Lee: ${message}`), reminder.text);
      assert.deepEqual(replyTo(reminder), [{ name: 'Ann Lee', address: OWNER }]);

      const feedback = { signeeId: signeeIds[0], subject: 'Clause 3', message: 'Which Friday?' };
      const res = await b.app.inject({ method: 'POST', url: `/v1/signatureRequest/${id}/feedback`, payload: feedback });
      assert.equal(res.statusCode, 200, res.body);
      const fb = one(await deliverQueued(b, smtp), 'signatureFeedbackRequesterEmail', OWNER);
      assert.deepEqual(replyTo(fb), [{ name: 'Signer 1', address: 'signer1@example.com' }]);

      await createRequest(
        b,
        requestBody({ authorizedSignees: [signer(3)], vars: { requesterName: 'Lee & Co\r\nBcc: eve@evil.example' } }),
      );
      const named = one(await deliverQueued(b, smtp), 'signatureRequestSigneeEmail', 'signer3@example.com');
      assert.equal(named.subject, 'Lee & Co Bcc: eve@evil.example invites you to sign "Contract"');
      assert.deepEqual(replyTo(named), [{ name: 'Lee & Co Bcc: eve@evil.example', address: OWNER }]);
      assert.equal(named.bcc, undefined, 'no header injected through the name');
      assert.deepEqual(smtp.envelopes.at(-1), ['signer3@example.com']);
    });
  });
}
