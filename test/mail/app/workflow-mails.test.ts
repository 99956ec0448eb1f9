// tier: slow (over 10 s of tests)
/**
 * The mails of the signature workflow, queued by the events themselves and delivered to a real SMTP
 * server in the test process, every mail parsed with mailparser: recipients, sender, subject, both parts,
 * links (the signing link opens the request as that signer), attachments, EMAIL_SENT, on both stores.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { smtpMailer } from '../../../src/adapters/mail/nodemailer-mailer.js';
import { deliverEmail } from '../../../src/app/mail/deliver-email.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { requestAttachments } from '../../../src/app/signature-requests/request-attachments.js';
import { sendProofMails } from '../../../src/app/signature-requests/send-proof-mails.js';
import { insertBatch } from '../../support/anchors.js';
import type { TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { deliverQueued, mailBenchPerSuite, sent, type Delivered } from '../../support/workflow-mail.js';
import { createRequest, delegate, requestBody, signer, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();
const OWNER = 'owner@example.com';
const WATCHER = { email: 'watcher@example.com', commonName: 'Wendy Watcher' };

const one = (mails: readonly Delivered[], type: string, to: string): ParsedMail => {
  const found = mails.find((m) => m.type === type && m.to === to);
  assert.ok(found, `${type} to ${to}`);
  return found.mail;
};

/** The button's link of a default mail, found in both parts. */
function actionLink(mail: ParsedMail, prefix: string): string {
  const html = String(mail.html);
  const match = new RegExp(`href="(${prefix.replace(/[.?]/g, '\\$&')}[^"]*)"`).exec(html);
  assert.ok(match, `a link starting ${prefix} in the HTML part`);
  const link = match[1]!.replace(/&amp;/g, '&');
  assert.ok(mail.text?.includes(link), 'the same link in the text part');
  return link;
}

for (const kind of kinds) {
  describe(`workflow mails on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    mailBenchPerSuite(kind, (opened) => ({ b, smtp } = opened));
    const post = (url: string, payload: unknown, auth = true) =>
      b.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify(payload),
        headers: { 'content-type': 'application/json', ...(auth && b.auth) },
      });

    it('a whole request: every mail to the right people, with working links, attachments and EMAIL_SENT', async () => {
      const body = requestBody({ watchers: [WATCHER], deadline: b.clock.now() + 10 * 86400_000 });
      const { id, signeeIds } = await createRequest(b, body);
      let mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), [
        'signatureRequestSigneeEmail → signer1@example.com',
        'signatureRequestSigneeEmail → signer2@example.com',
        'signatureRequestWatcherEmail → watcher@example.com',
      ]);
      const invitation = one(mails, 'signatureRequestSigneeEmail', 'signer1@example.com');
      assert.deepEqual(invitation.from?.value, [{ name: 'proofseal', address: 'no-reply@sign.example.com' }]);
      assert.equal(invitation.subject, `${OWNER} invites you to sign "Contract"`);
      assert.match(String(invitation.html), /Hello Signer 1,/);
      assert.match(invitation.text ?? '', /Hello Signer 1,/);
      const link = actionLink(invitation, 'https://sign.example.com/sign?signatureRequestURL=');
      const requestUrl = new URL(link).searchParams.get('signatureRequestURL')!;
      assert.equal(requestUrl, `https://sign.example.com/v1/signatureRequest/${id}?signeeId=${signeeIds[0]}`);
      const opened = await b.app.inject({ method: 'GET', url: requestUrl.slice('https://sign.example.com'.length) });
      assert.equal(opened.statusCode, 200, opened.body);
      assert.equal(opened.json().id, id);
      const watcherMail = one(mails, 'signatureRequestWatcherEmail', WATCHER.email);
      assert.match(actionLink(watcherMail, `https://sign.example.com/share/${id}/`), /\/share\/[^/]+\/[\w-]{43}$/);
      assert.doesNotMatch(String(watcherMail.html) + watcherMail.text, new RegExp(signeeIds.join('|')), 'no secret');

      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), [
        'signatureConfirmedRequesterEmail → owner@example.com',
        'signatureConfirmedSigneeEmail → signer1@example.com',
        'signatureConfirmedWatcherEmail → watcher@example.com',
      ]);
      assert.equal(one(mails, 'signatureConfirmedRequesterEmail', OWNER).subject, 'Signer 1 signed "Contract"');

      const feedback = { signeeId: signeeIds[1], subject: 'A <question>', message: 'Is clause 3 & 4 final?' };
      assert.equal((await post(`/v1/signatureRequest/${id}/feedback`, feedback, false)).statusCode, 200);
      mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), ['signatureFeedbackRequesterEmail → owner@example.com']);
      const fb = mails[0]!.mail;
      assert.match(String(fb.html), /<b>A &lt;question&gt;<\/b>/, 'values from users are escaped in HTML');
      assert.match(fb.text ?? '', /Is clause 3 & 4 final\?/);

      assert.equal((await post(`/v1/signatureRequest/${id}/remind`, [])).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), ['signatureReminderSigneeEmail → signer2@example.com']);

      const later = { deadline: b.clock.now() + 20 * 86400_000 };
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${id}/deadline`,
        headers: b.auth,
        payload: later,
      });
      assert.equal(put.statusCode, 200, put.body);
      mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), ['signatureDeadlineUpdatedSigneeEmail → signer2@example.com']);

      assert.equal((await delegate(b, id, signeeIds[1]!)).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureConfirmedRequesterEmail → owner@example.com',
        'signatureConfirmedSigneeEmail → signer2@example.com',
        'signatureConfirmedWatcherEmail → watcher@example.com',
      ]);

      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const queuedAtSeal = await b.deps.store.emails.list({ limit: 100, requestId: id });
      assert.equal(queuedAtSeal.filter((e) => e.status === 'queued').length, 0, 'no attestation before the proofs');
      const request = await b.deps.store.signatureRequests.findById(id);
      await insertBatch(
        b.s.db,
        request!.signers.map((s) => s.anchorId!),
        { status: 'CONFIRMED', confirmations: 6 },
      );
      assert.equal(await sendProofMails(b.deps, { limit: 100 }), 2);
      assert.equal(await sendProofMails(b.deps, { limit: 100 }), 0, 'once per signer');
      mails = await deliverQueued(b, smtp);
      assert.deepEqual(sent(mails), [
        'signatureProofConfirmedSigneeEmail → signer1@example.com',
        'signatureProofConfirmedSigneeEmail → signer2@example.com',
      ]);
      const proof = one(mails, 'signatureProofConfirmedSigneeEmail', 'signer1@example.com').attachments[0]!;
      assert.equal(proof.filename, 'proof-Signer-1.json');
      const receipt = JSON.parse(proof.content.toString('utf8'));
      assert.ok(receipt.targetHash && receipt.merkleRoot && receipt.anchors, 'a Chainpoint receipt');

      const sealed = await b.deps.store.signatureRequests.findById(id);
      await insertBatch(b.s.db, [sealed!.auditTrailAnchorId!], { status: 'CONFIRMED', confirmations: 6 });
      assert.equal(
        await completeProofBundles(b.deps, { limit: 100 }),
        1,
        'every proof confirmed: the attestation is due',
      );
      const queued = (await b.deps.store.emails.list({ limit: 100, requestId: id })).filter(
        (e) => e.status === 'queued',
      );
      assert.equal(queued.length, 4);
      const withoutProducer = { store: b.deps.store, clock: b.clock, mailer: smtpMailer(smtp.url) };
      await assert.rejects(
        deliverEmail({ ...withoutProducer, attachments: requestAttachments(b.deps) }, { emailId: queued[0]!.id }),
        /DELIVERY_FAILED|not delivered/,
        'no attestation producer: the attempt fails and is retried, the mail never goes without its PDF',
      );
      withoutProducer.mailer.close();
      const pdf = new TextEncoder().encode('%PDF-1.7 attestation of the test\n%%EOF\n');
      mails = await deliverQueued(b, smtp, {
        attestation: async (requestId) => (requestId === id ? pdf : new Uint8Array()),
      });
      assert.deepEqual(sent(mails), [
        'signatureAttestationEmail → owner@example.com',
        'signatureAttestationEmail → signer1@example.com',
        'signatureAttestationEmail → signer2@example.com',
        'signatureAttestationEmail → watcher@example.com',
      ]);
      for (const m of mails) {
        assert.equal(m.mail.attachments.length, 1);
        assert.equal(m.mail.attachments[0]!.filename, 'attestation.pdf');
        assert.equal(m.mail.attachments[0]!.contentType, 'application/pdf');
        assert.deepEqual(new Uint8Array(m.mail.attachments[0]!.content), pdf);
      }

      const trail = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })
      ).json();
      const emailSent = trail.auditEvents.filter((e: { type: string }) => e.type === 'EMAIL_SENT');
      assert.equal(emailSent.length, 18, 'one EMAIL_SENT per mail delivered');
      assert.ok(
        emailSent.some((e: { comment: string }) => e.comment === `signatureRequestSigneeEmail to signer1@example.com`),
      );
    });

    it('ordered signing invites one signer at a time', async () => {
      const { id, signeeIds } = await createRequest(b, requestBody({ ordered: true }));
      assert.deepEqual(sent(await deliverQueued(b, smtp)), ['signatureRequestSigneeEmail → signer1@example.com']);
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureConfirmedRequesterEmail → owner@example.com',
        'signatureConfirmedSigneeEmail → signer1@example.com',
        'signatureRequestSigneeEmail → signer2@example.com',
      ]);
    });

    it('requester who signs gets no requester copy; Disabled mails stay unsent; closing mails the invited', async () => {
      const vars = { signatureRequestWatcherEmailDisabled: true, signatureClosedWatcherEmailDisabled: true };
      const body = requestBody({
        authorizedSignees: [{ commonName: 'Olive Owner', email: 'OWNER@example.com' }, signer(2)],
        watchers: [WATCHER],
        vars,
      });
      const { id, signeeIds } = await createRequest(b, body);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureRequestSigneeEmail → OWNER@example.com',
        'signatureRequestSigneeEmail → signer2@example.com',
      ]);
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureConfirmedSigneeEmail → OWNER@example.com',
        'signatureConfirmedWatcherEmail → watcher@example.com',
      ]);
      assert.equal((await post(`/v1/signatureRequest/${id}/transition`, 'CLOSED')).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureClosedSigneeEmail → OWNER@example.com',
        'signatureClosedSigneeEmail → signer2@example.com',
      ]);
    });

    it('canceling: mails to the invited signers and watchers, none for a request never activated', async () => {
      const pending = await createRequest(
        b,
        requestBody({ watchers: [WATCHER], activation: b.clock.now() + 3600_000 }),
      );
      assert.deepEqual(await deliverQueued(b, smtp), []);
      assert.equal((await post(`/v1/signatureRequest/${pending.id}/transition`, 'CANCELED')).statusCode, 200);
      assert.deepEqual(await deliverQueued(b, smtp), [], 'nobody was told of it: nobody is told it is canceled');
      const { id } = await createRequest(b, requestBody({ watchers: [WATCHER] }));
      await deliverQueued(b, smtp);
      assert.equal((await post(`/v1/signatureRequest/${id}/transition`, 'CANCELED')).statusCode, 200);
      assert.deepEqual(sent(await deliverQueued(b, smtp)), [
        'signatureCanceledSigneeEmail → signer1@example.com',
        'signatureCanceledSigneeEmail → signer2@example.com',
        'signatureCanceledWatcherEmail → watcher@example.com',
      ]);
    });

    it('custom templates: signer vars over request vars over predefined; refused at creation when they do not parse', async () => {
      const body = requestBody({
        vars: {
          org: 'Request Org',
          signatureRequestSigneeEmailSubjectTemplate: '$org asks $signeeName#if($lang == "fr") (fr)#end',
          signatureRequestSigneeEmailContentTemplate:
            '<p>${org}: <a href="$signingURL?srURL=$tools.urlEncode($signatureRequestURL)">sign</a></p>',
        },
        authorizedSignees: [{ ...signer(1), vars: { org: 'Signer Org' }, lang: 'fr' }, signer(2)],
      });
      const { id, signeeIds } = await createRequest(b, body);
      const mails = await deliverQueued(b, smtp);
      assert.equal(
        one(mails, 'signatureRequestSigneeEmail', 'signer1@example.com').subject,
        'Signer Org asks Signer 1 (fr)',
      );
      const second = one(mails, 'signatureRequestSigneeEmail', 'signer2@example.com');
      assert.equal(second.subject, 'Request Org asks Signer 2');
      const url = encodeURIComponent(`https://sign.example.com/v1/signatureRequest/${id}?signeeId=${signeeIds[1]}`);
      assert.equal(
        String(second.html).trim(),
        `<p>Request Org: <a href="https://sign.example.com/sign?srURL=${url}">sign</a></p>`,
      );
      assert.equal(second.text?.trim(), 'Request Org: sign');

      const bad = await post('/v1/signatureRequest', {
        ...requestBody(),
        vars: { signatureReminderSigneeEmailContentTemplate: '<p>ok</p>\n#if($x\n<p>never closed</p>' },
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'INVALID_TEMPLATE');
      assert.match(bad.json().message, /signatureReminderSigneeEmailContentTemplate/);
      assert.match(bad.json().message, /line \d/);
      const mandatory = await post('/v1/signatureRequest', {
        ...requestBody(),
        authorizedSignees: [{ ...signer(1), vars: { signatureRequestSigneeEmailDisabled: true } }],
      });
      assert.equal(mandatory.statusCode, 400);
      assert.equal(mandatory.json().code, 'MANDATORY_EMAIL');
      const draft = await createRequest(b, requestBody({ state: 'DRAFT' }));
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${draft.id}`,
        headers: b.auth,
        payload: { ...requestBody(), vars: { signatureFeedbackRequesterEmailDisabled: true } },
      });
      assert.equal(put.statusCode, 400);
      assert.equal(put.json().code, 'MANDATORY_EMAIL');
      assert.deepEqual(await deliverQueued(b, smtp), [], 'a DRAFT sends nothing');
    });
  });
}
