// tier: slow (poppler, openssl or qpdf)
/**
 * The attestation PDF of a request whose document name, file name and signer names are long runs of
 * emoji, ZWJ sequences or combining marks renders, and poppler reads it; the line wrapping of the canvas
 * cuts a word too wide for a line only between characters (issue 21, item 5).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { rgb } from '@cantoo/pdf-lib';
import { pdfAttestationRenderer } from '../../../src/adapters/pdf/attestation-renderer.js';
import { PdfCanvas } from '../../../src/adapters/pdf/pdf-canvas.js';
import { sampleAttestationModel } from '../../support/attestation-model.js';
import { GRAPHEME_PIECES } from '../../support/fuzz.js';

const HOSTILE = [
  '😀'.repeat(120),
  `a${'😀'.repeat(200)}`,
  '👩‍👩‍👧‍👦'.repeat(40),
  'x\u0301'.repeat(101),
  '\u0301'.repeat(300),
  `Contrat ${'🇫🇷'.repeat(60)} ${'e\u0301\u0323'.repeat(80)}`,
  GRAPHEME_PIECES.join('').repeat(8),
];

/** The text poppler reads from a PDF. */
function pdfText(pdf: Uint8Array): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'proofseal-cuts-')), 'attestation.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

describe('attestation PDF with names of emoji and combining marks', () => {
  for (const [i, name] of HOSTILE.entries()) {
    it(`renders and reads back (hostile name ${i + 1})`, async () => {
      const model = sampleAttestationModel('{"bundle":true}', 3, i % 2 === 0 ? 'en' : 'fr');
      const signers = model.signers.map((s) => ({ ...s, name }));
      const pdf = await pdfAttestationRenderer().render({
        ...model,
        document: { ...model.document, name, fileName: `${name}.pdf` },
        requester: { ...model.requester, name },
        signers,
        proofs: model.proofs.map((p) => ({ ...p, signer: name })),
        events: model.events.map((e) => ({ ...e, actor: `${name} <signer@example.com>`, comment: name })),
      });
      assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-');
      assert.ok(pdfText(pdf).includes(model.requestId), 'poppler reads the request id');
    });
  }
});

describe('PdfCanvas.wrap', () => {
  it('cuts a word wider than the line into lines that fit, and loses nothing', async () => {
    const canvas = await PdfCanvas.create(rgb(0, 0, 0));
    const font = canvas.fonts.regular;
    const word = 'W'.repeat(400);
    const lines = canvas.wrap(word, font, 10, 120);
    assert.ok(lines.length > 3, 'the word was cut');
    assert.equal(lines.join(''), word);
    for (const line of lines) assert.ok(font.widthOfTextAtSize(line, 10) <= 120, `"${line}" is wider than 120`);
  });

  it('never leaves a line empty or a lone surrogate, whatever the text', async () => {
    const canvas = await PdfCanvas.create(rgb(0, 0, 0));
    for (const text of HOSTILE)
      for (const line of canvas.wrap(text, canvas.fonts.bold, 12, 80)) {
        assert.notEqual(line, '');
        assert.ok(!/\p{Cs}/u.test(line), 'a line holds a lone surrogate');
      }
  });
});
