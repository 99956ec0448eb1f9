// tier: slow (measured: 13.9 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Issue 21 item 9, on both stores: the sealed audit trail commits to personal data (format 2). The sharing
 * link's view names people by name and e-mail as the attestation does (issue 32 row 9), its proof bundle holds
 * no e-mail, and neither holds an IP address, user agent, phone or feedback text of anyone; a
 * signer reads no other signer's; the owner's export opens every commitment (SHA-256(salt ‖ value), salts from
 * the Random port); the bundle still proves the trail (its hash is the one the audit-trail anchor signs); a
 * trail sealed in plain before (format 1) still reads for its owner and leaves no one else's reach.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { attestationContent } from '../../../src/app/signature-requests/attestation/attestation-content.js';
import { auditTrailOf, sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import { getProofBundle, proofBundleJson } from '../../../src/app/signature-requests/proof-bundle.js';
import { signerSecretOf } from '../../../src/app/signature-requests/signer-secrets.js';
import type { Random } from '../../../src/app/shared/clock.port.js';
import { COMMITTED_FIELDS } from '../../../src/core/signature-requests/audit-commitment.js';
import { auditTrailCanonicalJson } from '../../../src/core/signature-requests/audit-trail.js';
import { deriveSharingToken } from '../../../src/core/signature-requests/sharing-token.js';
import { trailCheck } from '../../../src/web/browser/verify-checks.js';
import { insertBatch } from '../../support/anchors.js';
import { benchPerSuite } from '../../support/bench-suite.js';
import { canonical } from '../../support/canonical-json.js';
import { TEST_SECRET_KEY } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';
import type { Bench } from '../fixture.js';

const kinds = await storeKinds();

/** A Random whose byte strings are recorded, so the test knows each salt came from the port. */
function recordingRandom(): Random & { readonly given: Set<string> } {
  const given = new Set<string>();
  return {
    given,
    bytes(n) {
      const b = randomBytes(n);
      given.add(b.toString('hex'));
      return b;
    },
    uuid: () => randomUUID(),
  };
}

const ADA = {
  commonName: 'Ada Lovelace',
  email: 'ada.private@example.org',
  countryCallingCode: '33',
  phone: '612345678',
};
const BOB = { commonName: 'Bob Marley', email: 'bob.private@example.net' };
const OWNER = { email: 'owner@example.com', ua: 'OwnerAgent/1.0', ip: '198.51.100.10' };
const ADA_AT = { ua: 'AdaAgent/7.7', ip: '203.0.113.21' };
const BOB_AT = { ua: 'BobAgent/3.1', ip: '203.0.113.42' };
const FEEDBACK = { subject: 'Clause quatre', message: 'my flat is 12 rue Secrète' };
const ADA_VALUES = [ADA.email, ADA.phone, ADA_AT.ua, ADA_AT.ip, FEEDBACK.subject, FEEDBACK.message];
const BOB_VALUES = [BOB.email, BOB_AT.ua, BOB_AT.ip];
const OWNER_VALUES = [OWNER.email, OWNER.ua, OWNER.ip];
const EVERY_VALUE = [...ADA_VALUES, ...BOB_VALUES, ...OWNER_VALUES];

function leaks(body: string, values: readonly string[]): string[] {
  return values.filter((v) => body.includes(v));
}

/** SHA-256(salt ‖ value), computed here apart from the service. */
function commitment(saltHex: string, value: string): string {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(saltHex, 'hex'), Buffer.from(value, 'utf8')]))
    .digest('hex');
}

interface Opening {
  event: number;
  field: string;
  salt: string;
  value: string;
  auditTrailId?: string;
}

for (const kind of kinds) {
  describe(`sealed audit trail privacy on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    const random = recordingRandom();
    benchPerSuite(kind, (opened) => (b = opened), { random });

    const as = (who: { ua: string; ip: string }, headers: Record<string, string> = {}) => ({
      headers: { ...headers, 'user-agent': who.ua },
      remoteAddress: who.ip,
    });

    /** A completed, sealed request with every kind of personal value in its trail. */
    async function sealedRequest(): Promise<{ id: string; ada: string; bob: string; trailIds: string[] }> {
      b.clock.advance(1_000);
      const res = await b.app.inject({
        method: 'POST',
        url: '/v1/signatureRequest',
        ...as(OWNER, b.auth),
        payload: { name: 'Lease', hashToSign: randomBytes(32).toString('hex'), authorizedSignees: [ADA, BOB] },
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().id as string;
      const stored = (await b.deps.store.signatureRequests.findById(id))!;
      const [ada, bob] = stored.signers.map((s) => signerSecretOf(b.deps, s)) as [string, string];
      const view = await b.app.inject({
        method: 'GET',
        url: `/v1/signatureRequest/${id}?signeeId=${ada}`,
        ...as(ADA_AT),
      });
      assert.equal(view.statusCode, 200, view.body);
      const fb = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/feedback`,
        ...as(ADA_AT),
        payload: { signeeId: ada, ...FEEDBACK },
      });
      assert.equal(fb.statusCode, 200, fb.body);
      const remind = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/remind`,
        ...as(OWNER, b.auth),
        payload: [],
      });
      assert.equal(remind.statusCode, 200, remind.body);
      // A delivered invitation, as the mail delivery records it (EMAIL_SENT, `<kind> to <address>`).
      await b.deps.store.signatureRequests.addEvent(id, {
        date: b.clock.now(),
        type: 'EMAIL_SENT',
        actor: 'platform',
        signerId: null,
        ip: null,
        userAgent: null,
        comment: `signatureRequestSigneeEmail to ${BOB.email}`,
      });
      for (const [signeeId, at] of [
        [ada, ADA_AT],
        [bob, BOB_AT],
      ] as const) {
        const d = await b.app.inject({
          method: 'POST',
          url: `/v1/signatureRequest/${id}/delegate`,
          ...as(at),
          payload: { signeeId },
        });
        assert.equal(d.statusCode, 200, d.body);
      }
      assert.equal(await sealAuditTrail(b.deps, { requestId: id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      assert.equal(request.state, 'COMPLETED');
      await insertBatch(b.s.db, [...request.signers.map((s) => s.anchorId!), request.auditTrailAnchorId!], {
        status: 'SENT',
      });
      return { id, ada, bob, trailIds: request.signers.map((s) => s.auditTrailId) };
    }

    it('the sharing link: view and proof bundle hold no IP, user agent, phone or feedback of anyone', async () => {
      const { id } = await sealedRequest();
      const token = deriveSharingToken(TEST_SECRET_KEY, id);
      const view = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/shared/${token}` });
      assert.equal(view.statusCode, 200, view.body);
      // The view names people as the attestation does, by name and e-mail ("Who sees what"); nothing else.
      const EMAILS = [ADA.email, BOB.email, OWNER.email];
      assert.deepEqual(leaks(view.body, EVERY_VALUE), EMAILS);
      const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/shared/${token}/proofbundle` });
      assert.equal(res.statusCode, 202, res.body);
      assert.deepEqual(leaks(res.body, EVERY_VALUE), []);
      const bundle = res.json();
      assert.equal(bundle.auditTrailOpenings, undefined);
      const trail = bundle.auditTrailData;
      assert.equal(trail.format, 2);
      const types = trail.auditEvents.map((e: { type: string }) => e.type);
      for (const t of ['CREATED', 'VIEWED', 'FEEDBACK', 'REMINDED', 'EMAIL_SENT', 'DELEGATE', 'COMPLETED'])
        assert.ok(types.includes(t), `${t} is sealed`);
      const names = trail.auditEvents.map((e: { actor?: string }) => e.actor);
      assert.ok(names.includes(ADA.commonName) && names.includes(BOB.commonName), 'names stay readable');
      const mail = trail.auditEvents.find((e: { type: string }) => e.type === 'EMAIL_SENT');
      assert.equal(mail.comment, 'signatureRequestSigneeEmail', "the kind of mail, not its recipient's address");
      assert.match(mail.recipient, /^[0-9a-f]{64}$/);
      // Still proves the trail: the hash of its canonical JSON is what the audit-trail anchor signs.
      const hash = createHash('sha256').update(canonical(trail)).digest('hex');
      assert.equal(bundle.auditTrailReceipt.signature.signedHash, hash);
      assert.deepEqual(
        trailCheck(bundle),
        { state: 'ok', group: 'trail', key: 'trailMatches' },
        "the browser pages' check",
      );
      assert.equal(
        res.body,
        proofBundleJson(await getProofBundle(b.deps, (await b.deps.store.signatureRequests.findById(id))!)),
      );
    });

    it('the owner: every commitment opens, with a salt from the Random port, and the plain trail is the same', async () => {
      const { id } = await sealedRequest();
      const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth });
      const bundle = res.json();
      const trail = bundle.auditTrailData;
      const openings = bundle.auditTrailOpenings as Opening[];
      const committed = trail.auditEvents.flatMap((e: Record<string, unknown>, i: number) =>
        COMMITTED_FIELDS.filter((f) => e[f] !== undefined).map((f) => `${i}.${f}`),
      );
      assert.deepEqual(openings.map((o) => `${o.event}.${o.field}`).sort(), [...committed].sort(), 'one opening each');
      for (const o of openings) {
        assert.equal(commitment(o.salt, o.value), trail.auditEvents[o.event][o.field], `${o.event}.${o.field} opens`);
        assert.ok(random.given.has(o.salt), 'the salt came from the Random port');
      }
      assert.equal(new Set(openings.map((o) => o.salt)).size, openings.length, 'a fresh salt per value');
      const opened = openings.map((o) => o.value).join('\n');
      for (const v of [
        ADA.email,
        BOB.email,
        OWNER.email,
        ADA_AT.ua,
        ADA_AT.ip,
        BOB_AT.ua,
        BOB_AT.ip,
        OWNER.ua,
        OWNER.ip,
      ])
        assert.ok(opened.includes(v), `${v} is opened for the owner`);
      assert.ok(opened.includes(`${FEEDBACK.subject}\n\n${FEEDBACK.message}`));
      // The signatures' identities commit to the e-mails too; the owner opens each.
      const identities = (bundle.signatureReceipts as { signature: { signedIdentity: string } }[]).map(
        (r) => r.signature.signedIdentity,
      );
      const signatureOpenings = bundle.signatureOpenings as Opening[];
      assert.deepEqual(
        signatureOpenings.map((o) => o.value),
        [ADA.email, BOB.email],
      );
      for (const [i, o] of signatureOpenings.entries()) {
        const name = [ADA.commonName, BOB.commonName][i];
        assert.ok(identities.includes(`CN=${name},EMAILADDRESS=sha256:${commitment(o.salt, o.value)}`), name);
      }
      // The owner's live trail is the plain one, event for event.
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const plain = auditTrailOf(request, await b.deps.store.signatureRequests.events(id));
      assert.equal(plain.auditEvents.length, trail.auditEvents.length);
      const ip = openings.find((o) => o.field === 'ip' && plain.auditEvents[o.event]!.ip === BOB_AT.ip);
      assert.ok(ip, "Bob's IP opens where the plain trail has it");
    });

    it('a signer reads names of the others only, and the openings of their own values', async () => {
      const { id, bob, trailIds } = await sealedRequest();
      const others = [...ADA_VALUES, OWNER.ua, OWNER.ip];
      const view = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}?signeeId=${bob}` });
      assert.equal(view.statusCode, 200);
      assert.deepEqual(leaks(view.body, others), [], "Bob's view of the request");
      const trail = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/audittrail?signeeId=${bob}` });
      assert.deepEqual(leaks(trail.body, others), [], "Bob's live trail");
      assert.ok(trail.body.includes(BOB_AT.ua), 'his own values stay his');
      const res = await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle?signeeId=${bob}` });
      assert.deepEqual(leaks(res.body, [...others, OWNER.email]), [], "Bob's bundle");
      const openings = res.json().auditTrailOpenings as Opening[];
      assert.ok(openings.length >= 3);
      assert.ok(openings.every((o) => o.auditTrailId === trailIds[1]));
      assert.deepEqual([...new Set(openings.map((o) => o.value))].sort(), [...BOB_VALUES].sort());
      for (const o of openings)
        assert.equal(commitment(o.salt, o.value), res.json().auditTrailData.auditEvents[o.event][o.field]);
      assert.deepEqual(
        res.json().signatureOpenings.map((o: Opening) => [o.auditTrailId, o.value]),
        [[trailIds[1], BOB.email]],
      );
    });

    it('the attestation shows names and e-mails, kinds of events and the requester, no phone, origin or free text', async () => {
      const { id } = await sealedRequest();
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const bundle = await getProofBundle(b.deps, request);
      const service = {
        renderer: { render: async () => new Uint8Array() },
        images: { get: async () => null, check: async () => ({ kind: 'unavailable' as const }) },
        publicUrl: 'https://sign.example.com',
        serviceName: 'proofseal',
      };
      const model = await attestationContent(
        { ...b.deps, attestation: service },
        request,
        bundle,
        proofBundleJson(bundle),
      );
      // The evidence document: the requester and each signer by name and the e-mail they were reached at.
      const shown = JSON.stringify(model);
      assert.deepEqual(leaks(shown, [...ADA_VALUES, ...BOB_VALUES, OWNER.ua, OWNER.ip]), [ADA.email, BOB.email]);
      assert.deepEqual(model.requester, { name: OWNER.email, email: OWNER.email });
      assert.ok(model.events.some((e) => e.actor === ADA.commonName && e.type === 'DELEGATE'));
    });

    it('a trail sealed in plain before (format 1) stays readable by its owner, and reaches no one else', async () => {
      const { id, ada } = await sealedRequest();
      const request = (await b.deps.store.signatureRequests.findById(id))!;
      const v1 = auditTrailCanonicalJson(auditTrailOf(request, await b.deps.store.signatureRequests.events(id)));
      await b.s.db.query(
        'UPDATE signature_request SET audit_trail_sealed = $2, audit_trail_openings = NULL WHERE id = $1',
        [id, v1],
      );
      const owner = (
        await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/proofbundle`, headers: b.auth })
      ).json();
      assert.equal(canonical(owner.auditTrailData), v1, 'as sealed');
      assert.equal(owner.auditTrailOpenings, undefined);
      const token = deriveSharingToken(TEST_SECRET_KEY, id);
      for (const url of [
        `/v1/signatureRequest/${id}/shared/${token}/proofbundle`,
        `/v1/signatureRequest/${id}/proofbundle?signeeId=${ada}`,
      ]) {
        const res = await b.app.inject({ method: 'GET', url });
        assert.equal(res.json().auditTrailData, undefined, url);
        assert.ok(res.json().auditTrailReceipt, 'its receipt stays');
        assert.deepEqual(leaks(res.body, [...BOB_VALUES, OWNER.ua, OWNER.ip]), [], url);
      }
    });
  });
}
