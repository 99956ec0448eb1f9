/** Headers of served documents: names, types and ranges from hostile input stay harmless. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  cleanFileName,
  cleanMediaType,
  contentDisposition,
  MAX_FILE_NAME,
  rangeOf,
} from '../../../src/core/documents/file-headers.js';

describe('document headers', () => {
  it('writes any name as one quoted ASCII filename and an exact filename*, nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (name) => {
        const header = contentDisposition(name, 'application/octet-stream');
        const m = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(header);
        assert.ok(m, header);
        assert.ok(!/["\\]/.test(m[1]!));
        const kept = cleanFileName(name) ?? 'document';
        assert.equal(decodeURIComponent(m[2]!), kept);
        assert.ok(kept.length <= MAX_FILE_NAME);
      }),
    );
  });

  it('keeps the last path segment, drops controls, shows only a PDF inline', () => {
    assert.equal(cleanFileName('..\\..\\C:/x/contrat\u0000.pdf'), 'contrat.pdf');
    assert.equal(cleanFileName('../../'), null);
    assert.equal(
      cleanFileName('a\uD800b.pdf'),
      'ab.pdf',
      'a lone surrogate is dropped (encodeURIComponent would throw)',
    );
    assert.match(contentDisposition('a.pdf', 'application/pdf'), /^inline; /);
    assert.match(contentDisposition('a.html', 'text/html'), /^attachment; /);
  });

  it('keeps a bare media type, anything else becomes application/octet-stream', () => {
    assert.equal(cleanMediaType('Application/PDF; name=x'), 'application/pdf');
    assert.equal(cleanMediaType('text/html\r\nSet-Cookie: a=b'), 'application/octet-stream');
    assert.equal(cleanMediaType(undefined), 'application/octet-stream');
  });

  it('reads one bytes range, 416 past the end, and ignores what it does not understand', () => {
    assert.deepEqual(rangeOf('bytes=0-9', 100), { start: 0, end: 9 });
    assert.deepEqual(rangeOf('bytes=90-', 100), { start: 90, end: 99 });
    assert.deepEqual(rangeOf('bytes=-5', 100), { start: 95, end: 99 });
    assert.deepEqual(rangeOf('bytes=50-5000', 100), { start: 50, end: 99 });
    assert.equal(rangeOf('bytes=100-', 100), 'unsatisfiable');
    assert.equal(rangeOf('bytes=-0', 100), 'unsatisfiable');
    assert.equal(rangeOf('bytes=0-1,5-6', 100), null);
    assert.equal(rangeOf('items=0-1', 100), null);
    assert.equal(rangeOf('bytes=9-1', 100), null);
    assert.equal(rangeOf(undefined, 100), null);
  });
});
