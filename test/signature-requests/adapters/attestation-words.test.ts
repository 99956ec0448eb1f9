// tier: slow (poppler, openssl or qpdf)
/**
 * The words of the attestation PDF as poppler's pdftotext reads them: French fully French (the state in
 * words, a non-breaking space before the colon of each label), mail events named by their kind rather than
 * their type id, and identifiers too long for a table column broken between their words, never inside one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { identifierBreak } from '../../../src/adapters/pdf/pdf-canvas.js';
import type { AttestationModel } from '../../../src/app/signature-requests/attestation/attestation-model.js';
import { frenchSpacing } from '../../../src/core/signature-requests/attestation-text.js';
import { sampleAttestationModel } from '../../support/attestation-model.js';

function pdfFile(pdf: Uint8Array): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'proofseal-words-')), 'attestation.pdf');
  writeFileSync(file, pdf);
  return file;
}

function pdfText(pdf: Uint8Array, layout = false): string {
  return execFileSync('pdftotext', [...(layout ? ['-layout'] : []), pdfFile(pdf), '-'], { encoding: 'utf8' });
}

/** The page content streams, uncompressed by qpdf: pdftotext reads U+00A0 back as a plain space. */
function contentStreams(pdf: Uint8Array): string {
  return execFileSync('qpdf', ['--qdf', '--object-streams=disable', pdfFile(pdf), '-'], { encoding: 'latin1' });
}

function withMailEvents(model: AttestationModel, comment = 'signatureRequestSigneeEmail'): AttestationModel {
  return {
    ...model,
    events: [
      ...model.events,
      { date: model.producedAt - 1000, type: 'EMAIL_SENT', actor: 'platform', comment },
      {
        date: model.producedAt - 500,
        type: 'EMAIL_SENT',
        actor: 'platform',
        comment: 'signatureProofConfirmedSigneeEmail',
      },
    ],
  };
}

describe('attestation PDF words', () => {
  it('French: "État : terminée" with a non-breaking space, every label so, mail kinds in French', async () => {
    const model = withMailEvents(sampleAttestationModel('{"bundle":true}', 2, 'fr'));
    const pdf = await pdfAttestationRenderer().render(model);
    const text = pdfText(pdf);
    assert.ok(text.includes('État : terminée'), `the state in French:\n${text.slice(0, 600)}`);
    assert.ok(text.includes('Établie le :'));
    assert.ok(text.includes('SHA-256 du document :'));
    assert.doesNotMatch(text, /COMPLETED/);
    assert.ok(text.includes('invitation à signer'), 'the mail kind in words');
    assert.doesNotMatch(text, /signatureRequestSigneeEmail|signatureProofConfirmed/);
    assert.ok(text.includes('Fichier joint :'), 'running text spaced the French way too');
    // qpdf writes each string as a literal of WinAnsi bytes or as hex: look for both forms.
    const streams = contentStreams(pdf);
    const drawn = (t: string) =>
      streams.includes(t) || streams.toLowerCase().includes(Buffer.from(t, 'latin1').toString('hex'));
    assert.ok(drawn('État\u00a0:'), 'État\u00a0: drawn with a no-break space');
    assert.ok(!drawn('État :'), 'never with a breaking one');
    assert.ok(drawn('Établie le\u00a0:'));
    assert.ok(drawn('joint\u00a0:'), '"joint\u00a0:" in running text');
  });

  it('English: "State: completed", mail kinds in words', async () => {
    const model = withMailEvents(sampleAttestationModel('{"bundle":true}', 2, 'en'));
    const text = pdfText(await pdfAttestationRenderer().render(model));
    assert.ok(text.includes('State: completed'));
    assert.ok(text.includes('invitation to sign'));
    assert.ok(text.includes('proof confirmed'));
  });

  it('an identifier wider than its column breaks between its words, never inside one', async () => {
    const id = 'signatureDeadlineUpdatedWatcherReminderEmailNotice';
    const model = withMailEvents(sampleAttestationModel('{"bundle":true}', 1, 'en'), id);
    const text = pdfText(await pdfAttestationRenderer().render(model), true);
    const table = text.slice(text.lastIndexOf('Audit trail'));
    // The pieces of the identifier the PDF shows, in reading order: each one whole words of it.
    const pieces = table.split(/\s+/).filter((t) => /^[A-Za-z]{3,}$/.test(t) && id.includes(t) && /[A-Z]/.test(t));
    const start = pieces.findIndex((t) => id.startsWith(t));
    assert.ok(start >= 0 && pieces.length - start >= 2, `the identifier spans several lines:\n${table}`);
    assert.equal(pieces.slice(start).join(''), id, pieces.slice(start).join(' | '));
    for (const piece of pieces.slice(start))
      assert.match(piece, /^[a-z]*([A-Z][a-z]+)*$/, `"${piece}" is whole words of ${id}`);
  });

  it('identifierBreak: camelCase and punctuation breaks in the second half only', () => {
    assert.equal(identifierBreak('signatureRequestSignee'), 'signatureRequest');
    assert.equal(identifierBreak('0c1d2e3f-4a5b-6c7d'), '0c1d2e3f-4a5b-');
    assert.equal(identifierBreak('aBcdefghijkl'), null, 'a break in the first half would leave a short line');
    assert.equal(identifierBreak('ffffffffffffffff'), null);
  });

  it('frenchSpacing: before : ; ? ! and inside « », not inside times or URLs', () => {
    assert.equal(
      frenchSpacing('État : terminée ; oui ? non ! « citation »'),
      'État\u00a0: terminée\u00a0; oui\u00a0? non\u00a0! «\u00a0citation\u00a0»',
    );
    assert.equal(frenchSpacing('à 16:55, https://x.org/a?b=c'), 'à 16:55, https://x.org/a?b=c');
  });
});
