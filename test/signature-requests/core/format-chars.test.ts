/** Invisible format characters out of names (issue 32, row 11): bidi controls, zero-width spaces; joiners kept where they join. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanFileName, contentDisposition } from '../../../src/core/documents/file-headers.js';
import { withoutFormatChars } from '../../../src/core/text/format-chars.js';

const BIDI_AND_INVISIBLE = [
  ...'\u200B\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2060\u2061\u2066\u2067\u2068\u2069\uFEFF\u00AD\u061C',
];

describe('withoutFormatChars', () => {
  it('takes out the right-to-left override that makes invoice\\u202Efdp.exe look like a PDF', () => {
    assert.equal(withoutFormatChars('invoice\u202Efdp.exe'), 'invoicefdp.exe');
    assert.equal(withoutFormatChars('\u2067report\u2069\u200B.pdf\uFEFF'), 'report.pdf');
  });

  it('takes out every bidi control and zero-width character, each alone and among letters', () => {
    for (const c of BIDI_AND_INVISIBLE) {
      assert.equal(withoutFormatChars(c), '', `U+${c.charCodeAt(0).toString(16)}`);
      assert.equal(withoutFormatChars(`a${c}b`), 'ab', `U+${c.charCodeAt(0).toString(16)}`);
    }
  });

  it('keeps joiners that join: emoji sequences, Persian words; drops the ones that join nothing', () => {
    for (const kept of ['👩‍👩‍👧‍👦', '🏳️‍🌈', '👨🏽‍💻', 'می‌خواهم', 'x\u0301', 'Élodie'])
      assert.equal(withoutFormatChars(kept), kept);
    assert.equal(withoutFormatChars('\u200Dinvoice.pdf\u200C'), 'invoice.pdf');
    assert.equal(withoutFormatChars('a\u200D\u200D.pdf'), 'a.pdf');
  });

  it('property: no format character but a joiner is left, and nothing else is taken', () => {
    const piece = fc.oneof(fc.constantFrom(...BIDI_AND_INVISIBLE, '\u200C', '\u200D'), fc.string({ maxLength: 4 }));
    const noJoiner = (text: string) => text.replace(/[\u200C\u200D]/g, '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const out = withoutFormatChars(text);
        assert.doesNotMatch(out, /(?![\u200C\u200D])\p{Cf}/u);
        assert.equal(noJoiner(out), noJoiner(text).replace(/\p{Cf}/gu, ''));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('file names at intake and in headers', () => {
  it('cleanFileName drops the format characters; a name of nothing else is no name', () => {
    assert.equal(cleanFileName('invoice\u202Efdp.exe'), 'invoicefdp.exe');
    assert.equal(cleanFileName('\u202E\u200B'), null);
  });

  it('Content-Disposition carries no bidi control, even for a name kept before the fix', () => {
    const header = contentDisposition('invoice\u202Efdp.exe', 'application/octet-stream');
    assert.equal(header, `attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`);
  });
});
