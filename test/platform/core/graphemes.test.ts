import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { graphemeCount, truncateGraphemes } from '../../../src/core/text/graphemes.js';

/** A string is well-formed UTF-16 when every surrogate is half of a pair (what PostgreSQL's JSON requires). */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('truncateGraphemes', () => {
  it('keeps short text as it is', () => {
    assert.equal(truncateGraphemes('abc', 3), 'abc');
    assert.equal(truncateGraphemes('', 0), '');
  });
  it('never splits a surrogate pair, a combining sequence or an emoji sequence', () => {
    assert.equal(truncateGraphemes('😀'.repeat(120), 250), '😀'.repeat(120));
    assert.equal(truncateGraphemes('😀'.repeat(126), 251), '😀'.repeat(125));
    assert.equal(truncateGraphemes('x\u0301'.repeat(101), 5), 'x\u0301x\u0301');
    const family = '👩‍👩‍👧‍👦';
    assert.equal(truncateGraphemes(`a${family}`, 5), 'a');
  });
  it('counts the ellipsis toward the limit', () => {
    assert.equal(truncateGraphemes('abcdef', 4, '…'), 'abc…');
    assert.equal(truncateGraphemes('😀😀😀', 4, '…'), '😀…');
  });
  it('always returns well-formed text within the limit, a prefix of the input, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.nat({ max: 80 }), (text, max) => {
        const cut = truncateGraphemes(text, max);
        assert.ok(cut.length <= max || cut === text);
        assert.ok(text.startsWith(cut));
        assert.ok(wellFormed(cut));
        if (text.length > max) assert.ok(graphemeCount(cut) < graphemeCount(text));
      }),
    );
  });
});
