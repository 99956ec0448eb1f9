// tier: slow (measured: 12.1 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Templates and subjects through the HTTP API, on both stores (issue 21 items 1–5): hostile templates
 * refused at creation and at a DRAFT's PUT (the trial render with the request's own data), a template that
 * fails only later makes its mail fail visibly without failing the signer's action, and subjects cut on
 * grapheme boundaries (astral characters and combining marks never split).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/stores.js';
import { mailBenchPerSuite } from '../../support/workflow-mail.js';
import { createRequest, delegate, requestBody, signer, type Bench } from '../../signature-requests/fixture.js';

const kinds = await storeKinds();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The payloads of issue 21, as filed (a create body's `vars`). */
const CODE_EXECUTION = {
  signatureRequestSigneeEmailContentTemplate:
    '$tools.urlEncode("x")<p>$tools.eval(\'#set($g = $raw.__lookupGetter__("__proto__"))#set($fp = $g.call($tools.urlEncode))#set($F = $fp.constructor($raw.code))$F.call()\')</p>',
  code: 'return process.pid',
};
const NESTED_LOOPS = {
  signatureRequestSigneeEmailSubjectTemplate: '#foreach($i in [1..10000])#foreach($j in [1..10000])#end#end',
};
const DOUBLING = {
  signatureRequestSigneeEmailSubjectTemplate: '#set($s="xxxxxxxxxx")#foreach($i in [1..20])#set($s="$s$s")#end$s',
};

for (const kind of kinds) {
  describe(`templates through the API on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    mailBenchPerSuite(kind, (opened) => ({ b } = opened));
    const create = (body: Record<string, unknown>) =>
      b.app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: b.auth, payload: body });
    const mailsOf = async (requestId: string) => b.deps.store.emails.list({ limit: 1000, requestId });

    for (const [name, vars, code, pattern] of [
      ['the code-execution payload (item 1)', CODE_EXECUTION, 'INVALID_TEMPLATE', /line 1: \$tools is only called/],
      ['the nested-loop payload (item 4)', NESTED_LOOPS, 'TEMPLATE_TOO_COSTLY', /range|steps/],
      ['the doubling-string payload (item 4)', DOUBLING, 'TEMPLATE_TOO_COSTLY', /longer than/],
    ] as const)
      it(`${name} is refused at creation with 400 ${code}, nothing written`, async () => {
        const before = (await b.deps.store.emails.list({ limit: 1000 })).length;
        const res = await create(requestBody({ vars }));
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, code);
        assert.match(res.json().message, /^signatureRequestSigneeEmail(Subject|Content)Template: /);
        assert.match(res.json().message, pattern);
        assert.equal((await b.deps.store.emails.list({ limit: 1000 })).length, before, 'no mail queued');
      });

    it("a DRAFT's PUT runs the same trial render: an over-budget template is refused with 400", async () => {
      const { id } = await createRequest(b, requestBody({ state: 'DRAFT' }));
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/signatureRequest/${id}`,
        headers: b.auth,
        payload: requestBody({ vars: DOUBLING }),
      });
      assert.equal(put.statusCode, 400, put.body);
      assert.equal(put.json().code, 'TEMPLATE_TOO_COSTLY');
    });

    it("the trial uses the request's own data: a template over budget only for one signer's vars is refused", async () => {
      const heavy = { signatureRequestSigneeEmailSubjectTemplate: '#if($big)#foreach($i in [1..9000])x#end#end' };
      const ok = await create(requestBody({ vars: heavy }));
      assert.equal(ok.statusCode, 200, ok.body);
      const body = requestBody({ vars: heavy, authorizedSignees: [signer(1), { ...signer(2), vars: { big: true } }] });
      const res = await create(body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().message, /output longer than 1000 characters/);
    });

    it("a request's distinct templates are at most 32 Ki characters together (each parsed once)", async () => {
      const long = (c: string) => `<p>${c.repeat(12_000)}</p>`;
      const vars = {
        signatureRequestSigneeEmailContentTemplate: long('a'),
        signatureReminderSigneeEmailContentTemplate: long('b'),
        signatureCanceledSigneeEmailContentTemplate: long('c'),
      };
      const res = await create(requestBody({ vars }));
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'TEMPLATE_TOO_COSTLY');
      assert.match(res.json().message, /longer than 32768 characters together/);
      const same = {
        ...vars,
        signatureReminderSigneeEmailContentTemplate: long('a'),
        signatureCanceledSigneeEmailContentTemplate: long('a'),
      };
      assert.equal((await create(requestBody({ vars: same }))).statusCode, 200, 'the same template thrice counts once');
    });

    it('all the trial renders of one request share one step limit (many signers × a heavy template)', async () => {
      const vars = { signatureRequestSigneeEmailSubjectTemplate: '#foreach($i in [1..9000])#set($x = $i + 1)#end' };
      const few = await create(requestBody({ vars }));
      assert.equal(few.statusCode, 200, few.body);
      const many = Array.from({ length: 6 }, (_, i) => signer(i + 1));
      const res = await create(requestBody({ vars, authorizedSignees: many }));
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'TEMPLATE_TOO_COSTLY');
      assert.match(res.json().message, /more than 300000 evaluation steps for all the mails of this request/);
    });

    it('issue 32 row 6: a 1,900-key map tested 40,000 times per signer, 3 signers (37.8 s on main): answered at once', async () => {
      const map = `{${Array.from({ length: 1_900 }, (_, i) => `"${i.toString(36)}":1`).join(',')}}`;
      const vars = {
        signatureRequestSigneeEmailSubjectTemplate: `#set($m = ${map})#foreach($i in [1..8000])${'#if($m)#end'.repeat(5)}#end`,
      };
      const signers = [signer(1), signer(2), signer(3)];
      const timedCreate = async (body: Record<string, unknown>) => {
        const started = performance.now();
        const res = await create(body);
        assert.equal(res.statusCode, 200, res.body);
        return performance.now() - started;
      };
      await timedCreate(requestBody({ authorizedSignees: signers }));
      const plain = await timedCreate(requestBody({ authorizedSignees: signers }));
      const templated = await timedCreate(requestBody({ vars, authorizedSignees: signers }));
      assert.ok(
        templated < plain + 1_500,
        `created in ${templated.toFixed(0)} ms, without the template ${plain.toFixed(0)} ms`,
      );
    });

    it("a template that fails only when its mail is due: the mail is recorded failed, the signer's action succeeds", async () => {
      const vars = {
        signatureConfirmedRequesterEmailSubjectTemplate:
          '#if($signeeName == "Bo")#foreach($i in [1..10000])#foreach($j in [1..10000])#end#end#end$signeeName signed',
      };
      const body = requestBody({ vars, authorizedSignees: [signer(1), { commonName: 'Bo', email: 'bo@example.com' }] });
      const { id, signeeIds } = await createRequest(b, body);
      const signed = await delegate(b, id, signeeIds[1]!);
      assert.equal(signed.statusCode, 200, signed.body);
      const failed = (await mailsOf(id)).filter((m) => m.type === 'signatureConfirmedRequesterEmail');
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.status, 'failed');
      assert.match(
        failed[0]!.lastError ?? '',
        /^TEMPLATE_TOO_COSTLY: signatureConfirmedRequesterEmailSubjectTemplate: line 1: /,
      );
      const queuedJobs = b.jobs.sent.filter((j) => (j.data as { emailId?: string }).emailId === failed[0]!.id);
      assert.equal(queuedJobs.length, 0, 'a failed mail is never delivered');
      const trail = (await b.app.inject({ url: `/v1/signatureRequest/${id}/audittrail`, headers: b.auth })).json();
      const event = (trail.auditEvents as { type: string; comment?: string }[]).find((e) => e.type === 'EMAIL_FAILED');
      assert.ok(event, 'an EMAIL_FAILED event in the owner’s audit trail');
      assert.match(event.comment ?? '', /signatureConfirmedRequesterEmail to owner@example\.com: TEMPLATE_TOO_COSTLY/);
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200, 'the other signer signs as usual');
    });

    it('fileName of 120 × 😀: created (no 500), the subject cut between characters, never inside one', async () => {
      const res = await create(requestBody({ fileName: '😀'.repeat(120) }));
      assert.equal(res.statusCode, 200, res.body);
      const mails = await mailsOf(res.json().id);
      assert.ok(mails.length > 0);
      for (const m of mails) {
        assert.doesNotMatch(m.subject, LONE_SURROGATE);
        assert.ok(m.subject.length <= 250);
      }
      assert.equal(mails[0]!.subject, `owner@example.com invites you to sign "${'😀'.repeat(105)}`);
    });

    it('signers named with combining marks sign by delegation (200); their subjects keep whole characters', async () => {
      const marked = 'x\u0301'.repeat(101);
      const odd = `a${'x\u0301'.repeat(127)}`;
      const signers = [
        { commonName: marked, email: 'marked@example.com' },
        { commonName: odd, email: 'odd@example.com' },
        ...Array.from({ length: 48 }, (_, i) => signer(i + 1)),
      ];
      const { id, signeeIds } = await createRequest(b, requestBody({ authorizedSignees: signers }));
      assert.equal((await delegate(b, id, signeeIds[0]!)).statusCode, 200);
      assert.equal((await delegate(b, id, signeeIds[1]!)).statusCode, 200);
      const subjects = (await mailsOf(id))
        .filter((m) => m.type === 'signatureConfirmedRequesterEmail')
        .map((m) => m.subject)
        .sort();
      assert.deepEqual(subjects, [`${odd.slice(0, 249)}`, `${marked} signed "Contract"`].sort());
    });
  });
}
