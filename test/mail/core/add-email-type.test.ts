/**
 * Walks docs/architecture.md, "How to add an e-mail type", with a type of the test's own
 * (`signatureWitnessedSigneeEmail`): its entry in a copy of EMAIL_TYPES, its words, its name in the attestation's
 * list of mails. The compiler's part is checked by `npm run check` (tsc covers test/): each `@ts-expect-error`
 * below is a table the compiler must refuse while the new type has no entry in it; if a table stopped being keyed
 * by the e-mail types, its line would compile and the unused directive would fail the check. The renderer's part
 * runs: the new type renders through renderEmailFrom, the renderer of the service's own types, in both languages.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import { renderEmail, renderEmailFrom } from '../../../src/app/mail/render-email.js';
import { DEFAULT_TEXTS, type EmailText, type EmailTexts } from '../../../src/core/mail/default-texts.js';
import { EMAIL_TYPES, type EmailType, type EmailTypeId } from '../../../src/core/mail/email-types.js';
import { mailContext } from '../../../src/core/mail/mail-context.js';
import { MAILS, type AttestationLang } from '../../../src/core/signature-requests/attestation-text.js';

// Step 1: one entry in EMAIL_TYPES (here in a copy of it, as the test cannot change the service's own).
const FIXTURE_TYPES = {
  ...EMAIL_TYPES,
  signatureWitnessedSigneeEmail: { recipient: 'signee', mandatory: false, when: 'a witness countersigns' },
} as const satisfies Record<string, EmailType>;
type FixtureTypeId = keyof typeof FIXTURE_TYPES;
const NEW = 'signatureWitnessedSigneeEmail' satisfies FixtureTypeId;

// The tables as they are fit the service's types exactly...
const texts: EmailTexts<EmailTypeId> = DEFAULT_TEXTS;
const names: Record<AttestationLang, Record<EmailTypeId, string>> = MAILS;
// ...and the compiler asks for the new type's entries. Step 2: its words, in English and in French.
// @ts-expect-error DEFAULT_TEXTS has no words for the new type
const noWords: EmailTexts<FixtureTypeId> = DEFAULT_TEXTS;
const WITNESSED_EN: EmailText = {
  subject: 'A witness countersigned "$documentName"',
  title: 'Your signature was witnessed',
  lines: ['Hello $signeeName,', 'A witness countersigned your signature of "<b>$documentName</b>".'],
  action: { label: 'Review the request', url: 'signing' },
};
const WITNESSED_FR: EmailText = {
  subject: 'Un témoin a contresigné « $documentName »',
  title: 'Votre signature a été attestée',
  lines: ['Bonjour $signeeName,', 'Un témoin a contresigné votre signature de « <b>$documentName</b> »\u00a0.'],
  action: { label: 'Consulter la demande', url: 'signing' },
};
const englishOnly = {
  en: { ...DEFAULT_TEXTS.en, [NEW]: WITNESSED_EN },
  fr: DEFAULT_TEXTS.fr,
};
// @ts-expect-error the words in one language only: French is missing
const halfWords: EmailTexts<FixtureTypeId> = englishOnly;
const withWords: EmailTexts<FixtureTypeId> = {
  en: { ...DEFAULT_TEXTS.en, [NEW]: WITNESSED_EN },
  fr: { ...DEFAULT_TEXTS.fr, [NEW]: WITNESSED_FR },
};
// Step 3: its name in the attestation's list of mails (MAILS), in both languages of the attestation.
// @ts-expect-error MAILS does not name the new type
const noName: Record<AttestationLang, Record<FixtureTypeId, string>> = MAILS;
const withName: Record<AttestationLang, Record<FixtureTypeId, string>> = {
  en: { ...MAILS.en, [NEW]: 'witness notice' },
  fr: { ...MAILS.fr, [NEW]: 'avis de témoin' },
};

const engine = createVelocityEngine();
const SECRET = 'S'.repeat(43);
const context = (lang: string) =>
  mailContext({
    baseUrl: 'https://api.example.com',
    platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@example.com' },
    defaultSigningUrl: 'https://api.example.com/sign',
    request: {
      id: '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20',
      name: 'Lease & annex',
      state: 'IN_PROGRESS',
      deadline: null,
      fileName: null,
      fileURL: null,
      lang,
      vars: {},
    },
    requester: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    sharingUrl: 'https://api.example.com/share/s3',
    recipient: {
      kind: FIXTURE_TYPES[NEW].recipient,
      email: 'zoe@example.com',
      commonName: 'Zoé <Durand>',
      signerSecret: SECRET,
      requiresOTP: false,
      lang: null,
      vars: {},
    },
  });

describe('adding an e-mail type (docs/architecture.md)', () => {
  it('the tables as they are hold every type of EMAIL_TYPES and no other', () => {
    for (const lang of ['en', 'fr'] as const)
      assert.deepEqual(Object.keys(texts[lang]).sort(), Object.keys(EMAIL_TYPES).sort(), `DEFAULT_TEXTS.${lang}`);
    for (const lang of ['en', 'fr'] as const)
      assert.deepEqual(Object.keys(names[lang]).sort(), Object.keys(EMAIL_TYPES).sort(), `MAILS.${lang}`);
    assert.equal(noWords, DEFAULT_TEXTS, 'the refused table is the service table itself');
    assert.equal(noName, MAILS);
    assert.equal(halfWords.fr, DEFAULT_TEXTS.fr);
  });

  it('a new type with its words renders through the real renderer, in English and in French', () => {
    const en = renderEmailFrom(engine, withWords, { type: NEW, context: context('en') });
    assert.equal(en.subject, 'A witness countersigned "Lease & annex"');
    assert.match(en.html, /Your signature was witnessed/);
    assert.match(en.html, /Hello Zoé &lt;Durand&gt;,/, "the signer's name, escaped in HTML");
    assert.match(en.html, /<b>Lease &amp; annex<\/b>/);
    assert.ok(en.html.includes(`signeeId%3D${SECRET}`), 'the button leads to the signing page with the link secret');
    assert.match(en.text, /^Your signature was witnessed\n\nHello Zoé <Durand>,\n\n/);
    assert.match(en.text, /Review the request: https:\/\/api\.example\.com\/sign\?signatureRequestURL=/);
    const fr = renderEmailFrom(engine, withWords, { type: NEW, context: context('fr') });
    assert.equal(fr.subject, 'Un témoin a contresigné « Lease & annex »');
    assert.match(fr.html, /<html lang="fr">/);
    assert.match(fr.text, /Consulter la demande\u00a0: https:\/\/api\.example\.com\/sign/);
    assert.equal(withName.en[NEW], 'witness notice');
    assert.equal(withName.fr[NEW], 'avis de témoin');
  });

  it("the service's own types render the same through renderEmail and renderEmailFrom with DEFAULT_TEXTS", () => {
    const input = { type: 'signatureRequestSigneeEmail', context: context('fr') } as const;
    assert.deepEqual(renderEmailFrom(engine, DEFAULT_TEXTS, input), renderEmail(engine, input));
    assert.notDeepEqual(
      renderEmailFrom(engine, withWords, { type: NEW, context: context('fr') }),
      renderEmail(engine, input),
    );
  });
});
