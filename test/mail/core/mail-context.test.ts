/** E-mail types, switches and the template context: precedence, link forms, language fallback. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import {
  checkEmailSwitches,
  customTemplatesOf,
  EMAIL_TYPE_IDS,
  EMAIL_TYPES,
  isEmailDisabled,
} from '../../../src/core/mail/email-types.js';
import { mailContext, templateLang, type MailContextInput } from '../../../src/core/mail/mail-context.js';

const ID = '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20';
const input = (over: Partial<MailContextInput> = {}): MailContextInput => ({
  baseUrl: 'https://api.example.com',
  platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@example.com' },
  defaultSigningUrl: 'https://api.example.com/sign',
  request: {
    id: ID,
    name: 'Lease',
    state: 'IN_PROGRESS',
    deadline: null,
    fileName: null,
    fileURL: null,
    lang: 'fr',
    vars: {},
  },
  requester: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  sharingUrl: 'https://api.example.com/share/abc',
  recipient: {
    kind: 'signee',
    email: 'bob@example.com',
    commonName: 'Bob',
    signerSecret: 'S3cr3t+/=',
    requiresOTP: true,
    lang: null,
    vars: {},
  },
  ...over,
});

describe('e-mail types', () => {
  it('are those of the spec, two of them mandatory', () => {
    // The types are those docs/emails.md lists, one row each: the count is derived, never written down.
    const doc = readFileSync(new URL('../../../docs/emails.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('## The types'), doc.indexOf('\n## ', doc.indexOf('## The types') + 1));
    const documented = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...documented].sort(), [...EMAIL_TYPE_IDS].sort());
    assert.deepEqual(
      EMAIL_TYPE_IDS.filter((id) => EMAIL_TYPES[id].mandatory),
      ['signatureRequestSigneeEmail', 'signatureFeedbackRequesterEmail'],
    );
    assert.ok(EMAIL_TYPE_IDS.includes('signatureConfirmedWatcherEmail'));
  });

  it('<identifier>Disabled turns an e-mail off, except a mandatory one, which is refused', () => {
    assert.equal(isEmailDisabled({ signatureReminderSigneeEmailDisabled: true }, 'signatureReminderSigneeEmail'), true);
    assert.equal(
      isEmailDisabled({ signatureReminderSigneeEmailDisabled: false }, 'signatureReminderSigneeEmail'),
      false,
    );
    assert.equal(isEmailDisabled({ signatureRequestSigneeEmailDisabled: true }, 'signatureRequestSigneeEmail'), false);
    assert.doesNotThrow(() => checkEmailSwitches({ signatureClosedWatcherEmailDisabled: true }));
    assert.throws(
      () => checkEmailSwitches({ signatureFeedbackRequesterEmailDisabled: true }),
      (e: unknown) =>
        e instanceof DomainError &&
        e.code === 'MANDATORY_EMAIL' &&
        /signatureFeedbackRequesterEmailDisabled/.test(e.message),
    );
  });

  it('custom templates are found by name, content as HTML and subject as text', () => {
    assert.deepEqual(
      customTemplatesOf({
        signatureRequestSigneeEmailSubjectTemplate: 'S',
        signatureRequestSigneeEmailContentTemplate: 'C',
        other: 'x',
      }),
      [
        { name: 'signatureRequestSigneeEmailSubjectTemplate', source: 'S', html: false },
        { name: 'signatureRequestSigneeEmailContentTemplate', source: 'C', html: true },
      ],
    );
  });
});

describe('template context', () => {
  it('has the spec default forms of signatureRequestURL and signingURL', () => {
    const c = mailContext(input());
    assert.equal(c.signatureRequestURL, `https://api.example.com/v1/signatureRequest/${ID}?signeeId=S3cr3t%2B%2F%3D`);
    assert.equal(c.signingURL, 'https://api.example.com/sign');
    assert.equal(c.documentName, 'Lease');
    assert.equal(c.requesterName, 'Ada Lovelace');
    assert.equal(c.isSignee, true);
    assert.equal(c.isRequester, false);
    assert.equal(c.requiresOTP, true);
  });

  it('signer vars override request vars, which override the predefined values', () => {
    const base = input();
    const withVars = input({
      request: { ...base.request, vars: { requesterName: 'ACME Legal', brandColor1: '#112233', custom: 'req' } },
      recipient: {
        ...(base.recipient as Extract<MailContextInput['recipient'], { kind: 'signee' }>),
        vars: { custom: 'signer' },
      },
    });
    const c = mailContext(withVars);
    assert.equal(c.requesterName, 'ACME Legal', 'request var over predefined');
    assert.equal(c.custom, 'signer', 'signer var over request var');
    assert.equal(c.brandColor1, '#112233');
  });

  it("lang: the signer's, else the request's, falling back to en; a var overrides it", () => {
    assert.equal(mailContext(input()).lang, 'fr');
    assert.equal(templateLang('de'), 'en');
    assert.equal(templateLang('fr-CA'), 'fr');
    const base = input();
    assert.equal(mailContext({ ...base, request: { ...base.request, vars: { lang: 'de' } } }).lang, 'de');
  });

  it('a requester or watcher context carries no signer secret', () => {
    const c = mailContext(input({ recipient: { kind: 'requester' } }));
    assert.equal(c.signeeId, undefined);
    assert.equal(c.signatureRequestURL, undefined);
    assert.equal(c.isRequester, true);
  });
});
