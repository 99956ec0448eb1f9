// tier: slow (poppler)
/**
 * Issue 32 row 9 and issue 33 §2, on both stores, over HTTP with the real renderer, assembler and signer: one
 * rule for who sees what (docs/signature-requests.md, "Who sees what"). The attestation names the requester and
 * every signer by name and e-mail, with each signer's outcome (a decline with its time and reason); the sharing
 * link's JSON shows exactly those people's facts, and its PDFs (`…/attestation`, `…/file?amended=true`, read
 * back with pdftotext) the same; no phone, IP address, user agent or other free text reaches any of them. A
 * request closed with no signature has no signed copy (409 NO_SIGNATURES), and its attestation and mail say
 * that nobody signed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { attestationPdf } from '../../../src/app/signature-requests/attestation/attestation-pdf.js';
import { signedCopyForMail } from '../../../src/app/signature-requests/attestation/signed-copy.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { insertBatch } from '../../support/anchors.js';
import { TEST_SECRET_KEY, testConfig } from '../../support/fixtures.js';
import { startSmtp, type TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { deliverQueued, MAIL } from '../../support/workflow-mail.js';
import { createRequest, delegate, openBench, type Bench } from '../fixture.js';
import { pdfAttestation } from '../../support/signed-copy-fixture.js';

const kinds = await storeKinds();
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-who-sees-what-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

/** The text of a PDF as pdftotext (poppler) reads it, its white space collapsed to single spaces. */
function pdfText(bytes: Uint8Array): string {
  const file = path.join(dir, `${(seq += 1)}.pdf`);
  writeFileSync(file, bytes);
  const r = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.replace(/\s+/g, ' ');
}

async function contractPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText('Consulting agreement', { x: 60, y: 760, font, size: 18 });
  return Buffer.from(await doc.save());
}

const REQUESTER = { firstName: 'Hélène', lastName: 'Dupré', email: 'owner@example.com' };
const ADA = { commonName: 'Ada Lovelace', email: 'ada@example.org', countryCallingCode: '33', phone: '612345678' };
const BOB = { commonName: 'Bob Marley', email: 'bob@example.net' };
const CAROL = { commonName: 'Carol Shaw', email: 'carol@example.com' };
const REASON = 'The fee of clause 4 is wrong';
const ADA_AT = { 'user-agent': 'AdaAgent/7.7' };
const ADA_IP = '203.0.113.21';
const FEEDBACK = { subject: 'Clause quatre', message: 'my flat is 12 rue Secrete' };

/** What the attestation and the sharing link must both show, and what neither may. */
const SHOWN = [
  `${REQUESTER.firstName} ${REQUESTER.lastName}`,
  REQUESTER.email,
  ...[ADA, BOB, CAROL].flatMap((s) => [s.commonName, s.email]),
  REASON,
];
const NEVER = [ADA.phone, `+33${ADA.phone}`, ADA_AT['user-agent'], ADA_IP, FEEDBACK.subject, FEEDBACK.message];
/** The only fields a signer has in the sharing JSON. */
const SHARED_SIGNER_FIELDS = [
  'anchorId',
  'commonName',
  'declineReason',
  'declinedOn',
  'email',
  'proofStatus',
  'signedOn',
];

for (const kind of kinds) {
  describe(`who sees what, on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    let contract: Buffer;
    before(async () => {
      contract = await contractPdf();
      smtp = await startSmtp();
      b = await openBench(
        kind,
        {
          attestation: await pdfAttestation(),
          mail: MAIL,
        },
        { config: testConfig({}) },
      );
      await b.deps.store.accounts.setNames(b.accountId, REQUESTER.firstName, REQUESTER.lastName, b.clock.now());
    });
    after(async () => {
      await smtp?.stop();
      await b?.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) => b.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      b.app.inject({ method: 'POST', url, payload: payload as object, headers });
    const shared = (id: string) => `/v1/signatureRequest/${id}/shared/${deriveSharingToken(TEST_SECRET_KEY, id)}`;

    /** A request for the contract, uploaded and sent to `signers`. */
    async function sentRequest(signers: object[]) {
      const made = await createRequest(b, {
        name: 'Consulting',
        hashToSign: sha256(contract),
        authorizedSignees: signers,
        state: 'DRAFT',
      });
      const up = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${made.id}/file?fileName=consulting.pdf`,
        headers: { ...b.auth, 'content-type': 'application/pdf' },
        payload: contract,
      });
      assert.equal(up.statusCode, 200, up.body);
      const go = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${made.id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"PENDING"',
      });
      assert.equal(go.statusCode, 200, go.body);
      return made;
    }

    /** Closed by the owner, sealed, every anchor CONFIRMED, the bundle complete (which queues the mails). */
    async function closeAndConfirm(id: string): Promise<void> {
      const close = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"CLOSED"',
      });
      assert.equal(close.statusCode, 200, close.body);
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const anchors = [...request.signers.flatMap((s) => s.anchorId ?? []), request.auditTrailAnchorId!];
      await insertBatch(b.s.db, anchors, { status: 'CONFIRMED', confirmations: 6 });
      assert.ok((await completeProofBundles(b.deps, { limit: 100 })) >= 1);
    }

    it('the sharing JSON and both PDFs of the sharing link name the same people, and nothing owner-only', async () => {
      const { id, signeeIds } = await sentRequest([ADA, BOB, CAROL]);
      const [ada, bob, carol] = signeeIds as [string, string, string];
      const asAda = { headers: ADA_AT, remoteAddress: ADA_IP };
      assert.equal(
        (await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${ada}`, ...asAda })).statusCode,
        200,
      );
      const fb = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/feedback`,
        payload: { signeeId: ada, ...FEEDBACK },
        ...asAda,
      });
      assert.equal(fb.statusCode, 200, fb.body);
      assert.equal((await delegate(b, id, ada)).statusCode, 200);
      assert.equal((await delegate(b, id, bob)).statusCode, 200);
      const refused = await post(`/v1/signatureRequest/${id}/event`, {
        signeeId: carol,
        type: 'SIGN_REFUSED',
        comment: REASON,
      });
      assert.equal(refused.statusCode, 200, refused.body);

      // While IN_PROGRESS the sharing JSON already names the decline, as the attestation will.
      const live = (await get(shared(id))).json();
      const carolLive = live.signers.find((s: { commonName: string }) => s.commonName === CAROL.commonName);
      assert.equal(carolLive.declineReason, REASON);
      assert.equal(typeof carolLive.declinedOn, 'number');

      await closeAndConfirm(id);
      const view = await get(shared(id));
      assert.equal(view.statusCode, 200, view.body);
      const json = view.json();
      const attestation = await get(`${shared(id)}/attestation`);
      assert.equal(attestation.statusCode, 200, attestation.body);
      const copy = await get(`${shared(id)}/file?amended=true`);
      assert.equal(copy.statusCode, 200, copy.body);
      const bundle = await get(`${shared(id)}/proofbundle`);
      assert.equal(bundle.statusCode, 200, bundle.body);

      // The JSON: the requester by name and e-mail, each signer by name, e-mail and outcome; no other field.
      assert.deepEqual(json.requester, { name: 'Hélène Dupré', email: REQUESTER.email });
      for (const s of json.signers)
        assert.deepEqual(
          Object.keys(s).filter((k) => !SHARED_SIGNER_FIELDS.includes(k)),
          [],
          `${s.commonName}: no other field`,
        );
      const byName = Object.fromEntries(json.signers.map((s: { commonName: string }) => [s.commonName, s]));
      for (const s of [ADA, BOB, CAROL]) assert.equal(byName[s.commonName].email, s.email);
      for (const s of [ADA, BOB]) assert.equal(typeof byName[s.commonName].signedOn, 'number');
      assert.equal(byName[CAROL.commonName].signedOn, undefined);
      assert.equal(byName[CAROL.commonName].declineReason, REASON);

      // "Nothing more": every personal string of the JSON is in the attestation, and the rule's list is all of them.
      const personal = [
        json.requester.name,
        json.requester.email,
        ...json.signers.flatMap((s: Record<string, unknown>) =>
          [s.commonName, s.email, s.declineReason].filter((v) => typeof v === 'string'),
        ),
      ];
      assert.deepEqual([...personal].sort(), [...SHOWN].sort());

      const texts = { attestation: pdfText(attestation.rawPayload), 'signed copy': pdfText(copy.rawPayload) };
      for (const [what, text] of Object.entries(texts)) {
        for (const value of SHOWN) assert.ok(text.includes(value), `the ${what} shows ${value}`);
        assert.ok(text.includes('Declined on:'), `the ${what} says Carol declined`);
        assert.ok(text.includes('This document attests the signatures'), `the ${what} attests signatures`);
      }
      // Owner-only values reach none of the sharing link's answers.
      for (const [what, body] of [['JSON', view.body], ['bundle', bundle.body], ...Object.entries(texts)] as const)
        assert.deepEqual(
          NEVER.filter((v) => body.includes(v)),
          [],
          `the ${what} holds nothing owner-only`,
        );

      // Signed by two: the attestation mail carries the signed copy and speaks of signatures.
      const signedCopy = (rid: string) => signedCopyForMail(b.deps, rid, 10 * 1024 * 1024);
      const mails = (
        await deliverQueued(b, smtp, { attestation: (rid) => attestationPdf(b.deps, rid), signedCopy })
      ).filter((m) => m.type === 'signatureAttestationEmail');
      assert.equal(mails.length, 4, 'the requester and the three signers, each once');
      for (const { mail } of mails) {
        assert.equal(mail.subject, 'Signature attestation of "consulting.pdf"');
        assert.match(mail.text ?? '', /is closed\.\n\nThe attestation is attached, with the proof of every signature/);
        assert.deepEqual(
          mail.attachments.map((a) => a.filename),
          ['consulting-signed.pdf'],
        );
      }
    });

    it('closed with no signature: no signed copy (409 NO_SIGNATURES), and the attestation and the mail say so', async () => {
      const { id } = await sentRequest([BOB]);
      await closeAndConfirm(id);
      for (const url of [`${shared(id)}/file?amended=true`, `/v1/signatureRequest/${id}/file?amended=true`]) {
        const res = await get(url, url.includes('/shared/') ? {} : b.auth);
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().code, 'NO_SIGNATURES');
        assert.match(res.json().message, /no signature/);
      }
      assert.equal(await signedCopyForMail(b.deps, id, 10 * 1024 * 1024), null, 'nothing signed to mail');
      const text = pdfText(await attestationPdf(b.deps, id));
      assert.ok(text.includes('Attestation of a request nobody signed'), text.slice(0, 300));
      assert.ok(text.includes('Nobody signed the request below'));
      assert.ok(!text.includes('attests the signatures'), 'no sentence about signatures that do not exist');
      assert.ok(
        text.includes(`${BOB.commonName} E-mail: ${BOB.email} Signed on: not signed`),
        'the signer, not signed',
      );

      const attestationOf = (rid: string) => attestationPdf(b.deps, rid);
      const signedCopy = (rid: string) => signedCopyForMail(b.deps, rid, 10 * 1024 * 1024);
      const mails = (await deliverQueued(b, smtp, { attestation: attestationOf, signedCopy })).filter(
        (m) => m.type === 'signatureAttestationEmail',
      );
      assert.deepEqual(mails.map((m) => m.to).sort(), [BOB.email, REQUESTER.email]);
      for (const { mail } of mails) {
        assert.equal(mail.subject, '"consulting.pdf" ended with no signature');
        assert.match(mail.text ?? '', /Nobody signed it, so there is no signed document\./);
        assert.match(mail.text ?? '', /The signature request "consulting\.pdf" is closed\./);
        assert.doesNotMatch(mail.text ?? '', /proof of every signature|  /);
        assert.deepEqual(
          mail.attachments.map((a) => a.filename),
          ['attestation.pdf'],
        );
      }
    });
  });
}
