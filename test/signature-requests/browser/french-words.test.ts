// tier: slow (poppler's pdftotext reads the attestation back)
/**
 * Issue 33 §5: everything the service writes in French is French. Every mail type (the list of email-types.ts,
 * with each variant its words switch on), every page (as the server renders it, and every text its script
 * fills in), and the attestation (its texts, and the PDF read back by pdftotext) are rendered in French and
 * must hold no English word that has a French form, and a no-break space before `: ; ? !` and inside « ».
 *
 * The English words are those of the English catalogues (pages, signing pages, mails, attestation) minus the
 * words the French catalogues use too (document, code, SMS, Bitcoin, proofseal verify…): what is left is
 * English only, so a French text holding one of them shows English (a value, a fallback, a sealed word such
 * as the trail's `platform`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import { renderEmail } from '../../../src/app/mail/render-email.js';
import { DEFAULT_TEXTS } from '../../../src/core/mail/default-texts.js';
import { EMAIL_TYPE_IDS, EMAIL_TYPES, type EmailTypeId } from '../../../src/core/mail/email-types.js';
import { mailContext, type MailContextInput } from '../../../src/core/mail/mail-context.js';
import {
  ATTESTATION_TEXT_KEYS,
  attestationLabel,
  attestationText,
  auditActorText,
  auditCommentText,
  auditEventLabel,
  stateLabel,
  type AttestationLang,
} from '../../../src/core/signature-requests/attestation-text.js';
import { AUDIT_EVENT_TYPES } from '../../../src/core/signature-requests/audit-trail.js';
import { SIGNATURE_REQUEST_STATES } from '../../../src/core/signature-requests/states.js';
import { MESSAGE_KEYS, t, type Lang } from '../../../src/web/i18n.js';
import { SIGNING_KEYS, st } from '../../../src/web/i18n-signing.js';
import { renderSharePage } from '../../../src/web/pages/share.page.js';
import { renderSignPage } from '../../../src/web/pages/sign.page.js';
import { renderVerifyPage } from '../../../src/web/pages/verify.page.js';
import { sampleAttestationModel } from '../../support/attestation-model.js';

const engine = createVelocityEngine();
const ID = '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20';
/** Values a French user would give: their words are French, so any English found is the service's. */
const PARAMS: Record<string, string | number> = {
  date: '3 décembre 2026 à 10:04',
  time: '3 décembre 2026 à 10:04',
  name: 'Bail de la rue Haute',
  names: 'Zoé Durand',
  reason: 'le loyer est faux',
  hash: 'ab'.repeat(32),
  phone: '+33 6 •• •• •• 78',
  origin: 'https://ailleurs.example',
  n: 3,
  total: 5,
  ok: 4,
  fail: 1,
  seconds: 8,
  height: 820000,
  transactions: '2 transactions Bitcoin',
};

/** `text` with any placeholder the samples above do not fill given a French value. */
const filled = (text: string) => text.replace(/\{\w+\}/g, 'valeur');

/** The words of a text (letters only, lower case; one-letter words say nothing about a language). */
function words(text: string): Set<string> {
  return new Set((text.match(/\p{L}{2,}/gu) ?? []).map((w) => w.toLowerCase()));
}

/** A catalogue string as words: its Velocity directives, variables, placeholders, tags and URLs left out. */
function catalogueWords(source: string): Set<string> {
  return words(
    source
      .replace(/#\{?(if|elseif|else|end|set|foreach)\}?(\([^)]*\))?/g, ' ')
      .replace(/\$!?\{?[\w.]+\}?/g, ' ')
      .replace(/\{\w+\}/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/https?:\/\/\S+/g, ' '),
  );
}

/** Every string of the catalogues in `lang`, placeholders as written. */
function catalogue(lang: Lang): string[] {
  const mails = Object.values(DEFAULT_TEXTS[lang]).flatMap((m) => [
    m.subject,
    m.title,
    ...m.lines,
    ...(m.action ? [m.action.label] : []),
  ]);
  return [
    ...MESSAGE_KEYS.map((k) => t(lang, k)),
    ...SIGNING_KEYS.map((k) => st(lang, k)),
    ...mails,
    ...attestationStrings(lang, false),
  ];
}

/**
 * The attestation's texts in `lang`: every text, label, state, event and mail kind; `filled`, with sample
 * values and the platform's name in the trail (what is checked, not what the word list is built from).
 */
function attestationStrings(lang: AttestationLang, filled: boolean): string[] {
  const params = filled ? PARAMS : {};
  return [
    ...ATTESTATION_TEXT_KEYS.map((k) => attestationText(lang, k, params)),
    ...ATTESTATION_TEXT_KEYS.map((k) => attestationLabel(lang, k)),
    ...SIGNATURE_REQUEST_STATES.map((s) => stateLabel(lang, s)),
    ...AUDIT_EVENT_TYPES.map((e) => auditEventLabel(lang, e)),
    ...EMAIL_TYPE_IDS.map((id) => auditCommentText(lang, 'EMAIL_SENT', id)),
    // The platform's own events, as the "By" column names them: a word of data, so only checked, never learnt.
    ...(filled ? [auditActorText(lang, 'platform')] : []),
  ];
}

const union = (sets: Iterable<Set<string>>) => new Set([...sets].flatMap((s) => [...s]));
const frWords = union(catalogue('fr').map(catalogueWords));
/** English words with a French form: in the English catalogues, never in the French ones. */
const ENGLISH_ONLY = new Set([...union(catalogue('en').map(catalogueWords))].filter((w) => !frWords.has(w)));

/** The English-only words of `text`. */
function englishIn(text: string): string[] {
  return [...words(withoutNames(text))].filter((w) => ENGLISH_ONLY.has(w));
}

/**
 * Where French spacing is missing: `: ; ? !` ending a phrase (followed by a space or the end) without a
 * no-break space (U+00A0) before it, and « » without one inside. A `:` inside a URL or a time is no phrase end.
 */
function spacingFaults(text: string): string[] {
  const faults: string[] = [];
  for (const match of text.matchAll(/(.{0,24})([:;?!])(?=\s|$)/gsu)) {
    if (!match[1]!.endsWith('\u00a0')) faults.push(`${match[1]}${match[2]}`);
  }
  for (const match of text.matchAll(/«(?!\u00a0)/gu)) faults.push(text.slice(match.index, match.index + 16));
  for (const match of text.matchAll(/(?<!\u00a0)»/gu))
    faults.push(text.slice(Math.max(0, match.index - 16), match.index + 1));
  return faults;
}

/** `text` without its URLs and file names (`proof-bundle-….json`): names, in no language. */
const withoutNames = (text: string) => text.replace(/https?:\/\/\S+/g, ' ').replace(/[\w.-]+\.(json|pdf)\b/g, ' ');

/** The text a reader sees in an HTML page or mail: tags out (their labels and alt texts kept), entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*?(?:aria-label|alt|title|placeholder)="([^"]*)"[^>]*>/gi, ' $1 ')
    .replace(/<[^>]+>/g, ' ')
    .replace(
      /&(amp|lt|gt|quot|#39|nbsp);/g,
      (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': '\u00a0' })[e]!,
    );
}

function context(type: EmailTypeId, event: Record<string, string>): Record<string, string | boolean> {
  const recipient = EMAIL_TYPES[type].recipient;
  const to: MailContextInput['recipient'] =
    recipient === 'signee'
      ? {
          kind: 'signee',
          email: 'zoe@example.com',
          commonName: 'Zoé Durand',
          signerSecret: 'k3y',
          requiresOTP: true,
          lang: null,
          vars: {},
        }
      : recipient === 'watcher'
        ? { kind: 'watcher', email: 'marc@example.com', commonName: 'Marc Petit', lang: null }
        : { kind: 'requester' };
  return mailContext({
    baseUrl: 'https://signer.example.fr',
    platform: { serviceName: 'proofseal', serviceEmail: 'contact@example.fr' },
    defaultSigningUrl: 'https://signer.example.fr/sign',
    request: {
      id: ID,
      name: 'Bail de la rue Haute',
      state: 'CLOSED',
      deadline: Date.UTC(2026, 11, 1, 17),
      fileName: 'bail.pdf',
      fileURL: null,
      lang: 'fr',
      vars: { message: 'Merci de relire la page deux', serviceContactEmail: 'aide@example.fr' },
    },
    requester: { firstName: 'Hélène', lastName: 'Dupré', email: 'helene@example.fr' },
    sharingUrl: `https://signer.example.fr/share/${ID}/abc`,
    event: {
      signeeName: 'Zoé Durand',
      signeeEmail: 'zoe@example.com',
      feedbackSubject: 'Coquille',
      feedbackMessage: 'le loyer est faux',
      ...event,
    },
    recipient: to,
  });
}

/** Every variant a mail's words switch on: a decline or a remark, signed or not, with and without a deadline. */
const VARIANTS: readonly Record<string, string>[] = [
  { feedbackKind: 'decline', signatureCount: '0' },
  { feedbackKind: 'feedback', signatureCount: '2' },
];

/** Every French mail, its subject, its HTML as read and its text part, named for the failure message. */
function frenchMails(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const type of EMAIL_TYPE_IDS)
    for (const [i, event] of VARIANTS.entries()) {
      const mail = renderEmail(engine, { type, context: context(type, event) });
      out.push({ name: `${type}#${i} subject`, text: mail.subject });
      out.push({ name: `${type}#${i} html`, text: visibleText(mail.html) });
      out.push({ name: `${type}#${i} text`, text: mail.text });
    }
  return out;
}

const ASSETS = { script: '/assets/page.js', style: '/assets/pages.css' };

/** Every page as the server renders it in French, and every text its script may fill in. */
function frenchPages(): { name: string; text: string }[] {
  const share = `/share/${ID}/${'A'.repeat(43)}`;
  const pages = {
    verify: renderVerifyPage('fr', ASSETS),
    sign: renderSignPage('fr', ASSETS, {}, '/assets/pdf-worker.js'),
    share: renderSharePage('fr', ASSETS, share, 'mainnet'),
    shareBadLink: renderSharePage('fr', ASSETS, '/share/x/y', 'mainnet', 'badLink'),
    shareNotFound: renderSharePage('fr', ASSETS, share, 'mainnet', 'notFound'),
  };
  return [
    ...Object.entries(pages).map(([name, html]) => ({ name, text: visibleText(html) })),
    ...MESSAGE_KEYS.map((k) => ({ name: `t:${k}`, text: filled(t('fr', k, PARAMS)) })),
    ...SIGNING_KEYS.map((k) => ({ name: `st:${k}`, text: filled(st('fr', k, PARAMS)) })),
  ];
}

function assertFrench(texts: { name: string; text: string }[]): void {
  const english = texts.flatMap(({ name, text }) => englishIn(text).map((w) => `${name}: ${w}`));
  assert.deepEqual(english, [], 'English words in French texts');
  const spacing = texts.flatMap(({ name, text }) => spacingFaults(text).map((f) => `${name}: …${f}`));
  assert.deepEqual(spacing, [], 'French punctuation without its no-break space');
}

describe('everything in French is French (issue 33 §5)', () => {
  it('the English-only word list is built from the catalogues and catches English', () => {
    for (const word of ['signed', 'the', 'request', 'review', 'follow', 'platform', 'declined'])
      assert.ok(ENGLISH_ONLY.has(word), word);
    for (const word of ['document', 'code', 'bitcoin', 'sms', 'proofseal', 'verify'])
      assert.ok(!ENGLISH_ONLY.has(word), `${word} is written so in French too`);
    assert.deepEqual(englishIn('Consulter et signer : Review and sign'), ['review', 'and', 'sign']);
    assert.deepEqual(spacingFaults('Consulter et signer: https://x.fr/a?b=1 à 10:04'), ['Consulter et signer:']);
    assert.deepEqual(spacingFaults('Suivre la demande :'), ['Suivre la demande :']);
    assert.deepEqual(spacingFaults('« Bail »'), ['« Bail »', '« Bail »']);
    assert.deepEqual(spacingFaults('Suivre la demande\u00a0: «\u00a0Bail\u00a0»'), []);
  });

  it('every mail type, in each of its variants, in French', () => {
    const mails = frenchMails();
    // Each type, in each variant, as subject, HTML and text: the list is the catalogue's, not a count written here.
    assert.equal(mails.length, EMAIL_TYPE_IDS.length * VARIANTS.length * 3);
    assertFrench(mails);
    const invitation = mails.find((m) => m.name === 'signatureRequestSigneeEmail#0 text')!.text;
    assert.match(invitation, /Consulter et signer\u00a0:/);
  });

  it('every page, and every text the pages fill in, in French', () => {
    assertFrench(frenchPages());
  });

  it('the attestation in French: its texts, and the PDF as pdftotext reads it (the trail says la plateforme)', async () => {
    assertFrench(attestationStrings('fr', true).map((text, i) => ({ name: `attestation#${i}`, text: filled(text) })));
    const base = sampleAttestationModel('{"bundle":true}', 2, 'fr');
    const model = {
      ...base,
      document: { ...base.document, name: 'Bail de la rue Haute', fileName: 'bail.pdf' },
      events: [
        ...base.events,
        {
          date: base.producedAt - 900,
          type: 'EMAIL_SENT' as const,
          actor: 'platform',
          comment: 'signatureRequestSigneeEmail',
        },
        { date: base.producedAt - 800, type: 'COMPLETED' as const, actor: 'platform', comment: null },
      ],
    };
    const pdf = await pdfAttestationRenderer().render(model);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'proofseal-fr-')), 'attestation.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    assert.match(text, /la plateforme/);
    assert.deepEqual(englishIn(text), []);
  });
});
