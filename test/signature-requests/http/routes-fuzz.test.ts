// tier: slow (measured: 20.1 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Random input thrown at the signature-request routes with REAL ids: a DRAFT and an IN_PROGRESS request
 * of the owner, their signers' real signeeIds mixed with random ones, the owner's credentials. (The
 * OpenAPI-wide fuzz in test/platform/http/fuzz.test.ts only reaches these routes with unknown ids.) Never a 5xx,
 * every error in the one shape with a catalogued code, every route reached past its NOT_FOUND, and
 * afterwards each signer signed at most once, declined at most once, and never both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SIGNER_EVENT_TYPES } from '../../../src/core/signature-requests/audit-trail.js';
import { truncateGraphemes } from '../../../src/core/text/graphemes.js';
import { STATUS_OF } from '../../../src/http/error-codes.js';
import {
  anyText,
  encodeAnyText,
  graphemeText,
  malformedText,
  signatureRequestBody,
  templateVars,
} from '../../support/fuzz.js';
import { storeKinds } from '../../support/stores.js';
import { MAIL } from '../../support/workflow-mail.js';
import { createRequest, openBench, requestBody, signer, type Bench } from '../fixture.js';

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 40);
const [embedded] = await storeKinds();

const fields = [
  'signeeId',
  'otp',
  'signature',
  'pubKey',
  'signedIdentity',
  'signedIssuerDomain',
  'identityURL',
  'subject',
  'message',
  'name',
  'hashToSign',
  'authorizedSignees',
  'watchers',
  'deadline',
  'activation',
  'vars',
  'lang',
  'ordered',
];
const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });
const scalar = fc.oneof(anyText(), malformedText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), hex64);

describe('signature-request routes: random input with real ids', () => {
  let b: Bench;
  let routes: { method: string; url: string }[];
  let draft: string;
  let active: { id: string; signeeIds: string[] };
  /** The active request's sharing token, read from the owner's view as a client would. */
  let sharingToken: string;

  before(async () => {
    b = await openBench(embedded!);
    draft = (await createRequest(b, requestBody({ state: 'DRAFT' }))).id;
    const signers = Array.from({ length: 6 }, (_, i) => signer(i + 1));
    active = await createRequest(b, requestBody({ authorizedSignees: signers }));
    const view = (await b.app.inject({ url: `/v1/signatureRequest/${active.id}`, headers: b.auth })).json() as {
      signatureRequestSharingURL: string;
    };
    sharingToken = view.signatureRequestSharingURL.split('/').at(-1)!;
    const doc = (await b.app.inject('/v1/openapi.json')).json() as { paths: Record<string, object> };
    routes = Object.entries(doc.paths)
      .filter(([url]) => url.startsWith('/v1/signatureRequest/'))
      .flatMap(([url, methods]) => Object.keys(methods).map((m) => ({ method: m.toUpperCase(), url })));
  });
  after(async () => b?.close());

  const signeeId = () => fc.oneof(fc.constantFrom(...active.signeeIds), anyText(50));
  const token = () => fc.oneof(fc.constant(sharingToken), anyText(43));
  const body = () =>
    fc.oneof(
      fc.dictionary(fc.constantFrom(...fields), fc.oneof(scalar, signeeId(), fc.array(scalar, { maxLength: 3 }))),
      fc.record({ signeeId: signeeId(), otp: fc.oneof(anyText(8), fc.integer()) }, { requiredKeys: ['signeeId'] }),
      // Signer events: a known type (a decline among them) with a hostile comment, or an unknown type.
      fc.record(
        {
          signeeId: signeeId(),
          type: fc.constantFrom(...SIGNER_EVENT_TYPES, 'SIGN_REFUSED', 'SIGNED'),
          comment: fc.oneof(graphemeText(400), anyText(), malformedText),
        },
        { requiredKeys: ['signeeId', 'type'] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('"CLOSED"', '"CANCELED"', '"IN_PROGRESS"', '"DRAFT"', '"PENDING"'),
      fc.record({ name: graphemeText(256), fileName: graphemeText(256), vars: templateVars }, { requiredKeys: [] }),
    );

  it('finds the routes of signature requests in the OpenAPI document', () => {
    assert.ok(routes.length >= 10, `only ${routes.length} routes`);
  });

  it('no 5xx, one error shape, each route reached past NOT_FOUND, each signer signed at most once', async () => {
    for (const route of routes) {
      const answers = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(fc.boolean(), signeeId(), token(), body(), async (useDraft, sid, tok, payload) => {
          const url = route.url
            .replace('{id}', useDraft ? draft : active.id)
            .replace('{signeeId}', encodeAnyText(sid))
            .replace('{token}', encodeAnyText(tok));
          const withBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
          const res = await b.app.inject({
            method: route.method as 'POST',
            url: route.method === 'GET' ? `${url}?signeeId=${encodeAnyText(sid)}` : url,
            headers: { ...b.auth, 'content-type': 'application/json' },
            payload: withBody ? (typeof payload === 'string' ? payload : JSON.stringify(payload)) : undefined,
          });
          const answer =
            res.statusCode < 400 ? String(res.statusCode) : (JSON.parse(res.body) as { code: string }).code;
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          assertAnswer(res, `${route.method} ${url}`);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      // Past NOT_FOUND: any other answer, a 404 NO_LOGO (the request was found; it has no logo) included.
      const beyond = [...answers.keys()].filter((a) => a !== 'NOT_FOUND');
      assert.ok(beyond.length > 0, `${route.method} ${route.url}: only NOT_FOUND (${JSON.stringify([...answers])})`);
    }
    const trail = (await b.app.inject({ url: `/v1/signatureRequest/${active.id}/audittrail`, headers: b.auth })).json();
    const signatures = (trail.auditEvents as { type: string; auditTrailId?: string }[]).filter((e) =>
      ['DELEGATE', 'SIGN'].includes(e.type),
    );
    assert.equal(new Set(signatures.map((e) => e.auditTrailId)).size, signatures.length, 'a signer signed twice');
    const declines = (trail.auditEvents as { type: string; auditTrailId?: string }[]).filter(
      (e) => e.type === 'SIGN_REFUSED',
    );
    const declined = new Set(declines.map((e) => e.auditTrailId));
    assert.equal(declined.size, declines.length, 'a signer declined twice');
    assert.ok(!signatures.some((e) => declined.has(e.auditTrailId)), 'a signer both signed and declined');
  });
});

describe('signature-request creation: hostile names, file names, signer names and template vars', () => {
  let b: Bench;
  before(async () => {
    b = await openBench(embedded!, { mail: MAIL });
  });
  after(async () => b?.close());

  it('never answers 5xx (each mail rendered, each subject and audit text cut on a character boundary)', async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(signatureRequestBody, async (payload) => {
        const res = await b.app.inject({
          method: 'POST',
          url: '/v1/signatureRequest',
          headers: { ...b.auth, 'content-type': 'application/json' },
          payload,
        });
        if (res.statusCode === 200) created += 1;
        assertAnswer(res, `POST /v1/signatureRequest ${truncateGraphemes(payload, 300)}`);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
    assert.ok(created > 0, 'no request was created: the bodies do not reach the mails');
  });
});

function assertAnswer(res: { statusCode: number; body: string }, what: string): void {
  assert.ok(res.statusCode < 500, `${what} → ${res.statusCode} ${res.body}`);
  if (res.statusCode < 400) return;
  const err = JSON.parse(res.body) as { statusCode: number; code: keyof typeof STATUS_OF };
  assert.equal(STATUS_OF[err.code], res.statusCode, `${what} → ${res.body}: code not in the catalogue`);
  assert.equal(err.statusCode, res.statusCode, what);
}
