/** Every default e-mail in en and fr, custom templates from vars, escaping of users' values, one-line subjects. */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { fileMailer } from '../../../src/adapters/mail/nodemailer-mailer.js';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import { checkMailVars, renderEmail } from '../../../src/app/mail/render-email.js';
import type { Email } from '../../../src/app/mail/email.port.js';
import { DomainError } from '../../../src/core/errors.js';
import { EMAIL_TYPE_IDS, EMAIL_TYPES } from '../../../src/core/mail/email-types.js';
import { mailContext, type MailContextInput } from '../../../src/core/mail/mail-context.js';

const engine = createVelocityEngine();
const ID = '0b6f7c1e-3a55-4c7e-9a39-2f5f6a3c1d20';

function context(kind: 'signee' | 'requester' | 'watcher', lang: string, vars: Record<string, string | boolean> = {}) {
  const recipient: MailContextInput['recipient'] =
    kind === 'signee'
      ? {
          kind,
          email: 'zoe@example.com',
          commonName: 'Zoé <Durand>',
          signerSecret: 'k3y+/=',
          requiresOTP: true,
          lang: null,
          vars: {},
        }
      : kind === 'watcher'
        ? { kind, email: 'w@example.com', commonName: 'Wat', lang: null }
        : { kind };
  return mailContext({
    baseUrl: 'https://api.example.com',
    platform: { serviceName: 'proofseal', serviceEmail: 'no-reply@example.com' },
    defaultSigningUrl: 'https://api.example.com/sign',
    request: {
      id: ID,
      name: 'Bail & co',
      state: 'COMPLETED',
      deadline: Date.UTC(2026, 11, 1, 17),
      fileName: null,
      fileURL: null,
      lang,
      vars,
    },
    requester: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    sharingUrl: 'https://api.example.com/share/s3',
    event: {
      signeeName: 'Zoé <Durand>',
      signeeEmail: 'zoe@example.com',
      feedbackSubject: 'Typo',
      feedbackMessage: 'Page 2 <script>',
    },
    recipient,
  });
}

const kindOf = (id: (typeof EMAIL_TYPE_IDS)[number]) => {
  const r = EMAIL_TYPES[id].recipient;
  return r === 'all' ? 'requester' : r;
};

/** The text part of `mail` as a reader gets it: built into a message by the mailer, then parsed. */
async function parsedText(mail: { subject: string; html: string; text: string }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proofseal-mail-'));
  try {
    const address = { name: 'Zoé', address: 'zoe@example.com' };
    const email: Email = {
      ...mail,
      id: ID,
      messageId: `${ID}@example.com`,
      accountId: null,
      requestId: ID,
      type: 'signatureRequestSigneeEmail',
      from: address,
      to: address,
      attachments: [],
      status: 'queued',
      attempts: 0,
      lastError: null,
      created: Date.UTC(2026, 10, 1),
      sentAt: null,
    };
    await fileMailer(dir).send(email, []);
    const [file] = await readdir(dir);
    const parsed = await simpleParser(await readFile(path.join(dir, file!)));
    assert.equal(typeof parsed.text, 'string');
    return parsed.text!;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('default e-mails', () => {
  for (const lang of ['en', 'fr'])
    for (const id of EMAIL_TYPE_IDS)
      it(`${id} (${lang}): subject, HTML and text, every variable resolved, users' values escaped`, () => {
        const mail = renderEmail(engine, { type: id, context: context(kindOf(id), lang) });
        for (const part of [mail.subject, mail.html, mail.text]) {
          assert.ok(part.length > 0);
          assert.doesNotMatch(part, /\$!?\{?[a-zA-Z]/, 'no variable left unresolved');
          assert.doesNotMatch(part, /#(if|end|else|set|foreach)\b/, 'no directive left');
        }
        assert.doesNotMatch(mail.html, /<script>|<Durand>/, 'names and messages are escaped in HTML');
        assert.match(mail.html, /^<!DOCTYPE html>/);
        assert.match(mail.html, new RegExp(`<html lang="${lang}">`));
      });

  it('the invitation links to <signingURL>?signatureRequestURL=<url-encoded signatureRequestURL>', () => {
    const mail = renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: context('signee', 'en') });
    const requestUrl = `https://api.example.com/v1/signatureRequest/${ID}?signeeId=k3y%2B%2F%3D`;
    const link = `https://api.example.com/sign?signatureRequestURL=${encodeURIComponent(requestUrl)}`;
    assert.ok(mail.html.includes(`href="${link}"`), mail.html);
    assert.ok(mail.text.includes(link));
    assert.match(mail.text, /A code sent by SMS/);
    assert.equal(mail.subject, 'Ada Lovelace invites you to sign "Bail & co"', 'subjects are text, not HTML');
  });

  it('the text part of a parsed mail has one blank line between paragraphs, none left by empty optional lines', async () => {
    const bare = { signatureRequestDeadline: '', requiresOTP: false, serviceURL: '' };
    const full = await parsedText(
      renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: context('signee', 'en') }),
    );
    const text = await parsedText(
      renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: context('signee', 'en', bare) }),
    );
    for (const t of [full, text]) {
      assert.doesNotMatch(t, /\n\s*\n\s*\n/, 'no two blank lines in a row');
      const padded = t.split('\n').filter((line) => line !== '-- ' && /\s$/.test(line));
      assert.deepEqual(padded, [], 'no line but the signature delimiter ends with a space');
    }
    assert.match(full, /^Please sign before 2026-12-01 17:00 UTC\.\n\nA code sent by SMS.*\n\nReview and sign: /m);
    assert.match(text, /^Ada Lovelace asks you to sign the document "Bail & co"\.\n\nReview and sign: /m);
    assert.match(text, /\n\n-- \nproofseal$/, 'the signature keeps its "-- " line; no service URL, no space');
  });

  it('French by the request language, with its accents; English for a language without templates', () => {
    assert.equal(
      renderEmail(engine, { type: 'signatureReminderSigneeEmail', context: context('signee', 'fr') }).subject,
      'Rappel\u00a0: «\u00a0Bail & co\u00a0» attend votre signature',
    );
    assert.match(
      renderEmail(engine, { type: 'signatureReminderSigneeEmail', context: context('signee', 'de') }).subject,
      /^Reminder/,
    );
  });

  it('custom subject and content templates from vars, with custom variables; text part from the HTML', () => {
    const vars = {
      signatureRequestSigneeEmailSubjectTemplate:
        '#if($lang == "fr")Signez#else Sign#end: $documentName\r\nBcc: x@evil.com',
      signatureRequestSigneeEmailContentTemplate:
        '<p>Dear $signeeName, ref $contractRef</p><a href="$signingURL?srURL=$tools.urlEncode($signatureRequestURL)">go</a>',
      contractRef: 'C-42',
    };
    const mail = renderEmail(engine, { type: 'signatureRequestSigneeEmail', context: context('signee', 'fr', vars) });
    assert.equal(mail.subject, 'Signez: Bail & co Bcc: x@evil.com', 'one line: no header injection');
    assert.ok(mail.html.startsWith('<p>Dear Zoé &lt;Durand&gt;, ref C-42</p>'));
    assert.ok(
      mail.html.includes(
        `srURL=${encodeURIComponent(`https://api.example.com/v1/signatureRequest/${ID}?signeeId=k3y%2B%2F%3D`)}`,
      ),
    );
    assert.equal(mail.text.split('\n')[0], 'Dear Zoé <Durand>, ref C-42');
  });

  it('branding variables reach the layout', () => {
    const mail = renderEmail(engine, {
      type: 'signatureConfirmedWatcherEmail',
      context: context('watcher', 'en', {
        brandColor1: '#ff0066',
        serviceName: 'ACME Sign',
        serviceLogoURL: 'https://acme.example/logo.png',
      }),
    });
    assert.match(mail.html, /border-bottom:4px solid #ff0066/);
    assert.match(mail.html, /<img src="https:\/\/acme.example\/logo.png" alt="ACME Sign"/);
  });

  it('checkMailVars refuses a bad template (naming it and the line), a mandatory switch and a bad colour', () => {
    const code = (vars: Record<string, string | boolean>) => {
      try {
        checkMailVars(engine, [vars]);
        return 'ok';
      } catch (err) {
        return err instanceof DomainError ? `${err.code}: ${err.message}` : String(err);
      }
    };
    assert.equal(code({ brandColor1: '#112233', signatureReminderSigneeEmailDisabled: true }), 'ok');
    assert.match(
      code({ signatureClosedSigneeEmailContentTemplate: 'a\nb\n$x.getClass()' }),
      /^INVALID_TEMPLATE: signatureClosedSigneeEmailContentTemplate: line 3/,
    );
    assert.match(code({ signatureRequestSigneeEmailDisabled: true }), /^MANDATORY_EMAIL/);
    assert.match(
      code({ brandColor1: 'red;background:url(https://t.example/p.gif)' }),
      /^VALIDATION_FAILED: "vars.brandColor1"/,
    );
    assert.match(code({ serviceLogoURL: 'javascript:alert(1)' }), /^VALIDATION_FAILED/);
  });
});
