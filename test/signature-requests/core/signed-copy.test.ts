/**
 * Finding the original inside a signed copy (core/documents/signed-copy.ts): the prefix ending at a `%%EOF`
 * (with or without its CR, LF or CRLF) whose SHA-256 is the document's, hashed by node:crypto here.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  documentHashesOf,
  originalInSignedCopy,
  originalRevision,
  revisionEnds,
} from '../../../src/core/documents/signed-copy.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('the original inside a signed copy', () => {
  it('lists every revision end: after %%EOF, and after the CR, LF or CRLF that follows it', () => {
    const pdf = bytes('%PDF-1.7\nA\n%%EOF\nB\n%%EOF\r\nC\n%%EOF\rD %%EOF%%EOFx\n%%EOF');
    const at = (needle: string, from = 0) => pdf.indexOf(needle, from) + needle.length;
    const first = at('A\n%%EOF');
    const second = at('B\n%%EOF');
    const third = at('C\n%%EOF');
    const fourth = at('D %%EOF');
    assert.deepEqual(revisionEnds(pdf), [
      first,
      first + 1,
      second,
      second + 1,
      second + 2,
      third,
      third + 1,
      fourth,
      fourth + 5,
    ]);
  });

  it('the whole file is no earlier revision; an incomplete marker at the end is none', () => {
    assert.deepEqual(revisionEnds(bytes('%PDF-1.7\n%%EOF')), []);
    assert.deepEqual(revisionEnds(bytes('%PDF-1.7\n%%EO')), []);
    assert.equal(originalRevision(bytes('%PDF-1.7\n%%EOF'), [sha256(bytes('%PDF-1.7\n%%EOF'))]), null);
  });

  it('finds the revision whose hash is named, whatever the case of the hex; null when none has it', () => {
    const original = bytes(`%PDF-1.7\n${randomBytes(5000).toString('latin1')}\n%%EOF\n`);
    const update = bytes('1 0 obj\n<<>>\nendobj\nxref\n%%EOF\n3 0 obj\n%%EOF\n');
    const copy = Buffer.concat([original, update]);
    const hash = sha256(original);
    assert.deepEqual(originalRevision(copy, [hash.toUpperCase()]), { length: original.length, sha256: hash });
    assert.deepEqual(originalRevision(copy, ['00'.repeat(32), hash]), { length: original.length, sha256: hash });
    assert.equal(originalRevision(copy, ['00'.repeat(32)]), null);
    assert.equal(originalRevision(copy, []), null);
    const changed = Buffer.from(copy);
    changed[100] ^= 1;
    assert.equal(originalRevision(changed, [hash]), null, 'one byte of the original changed');
  });

  it('reads the document hash from a bundle: trail hashToSign, receipts signedHash and targetHash, hostile shapes ignored', () => {
    const [a, b, c] = ['aa', 'bb', 'cc'].map((x) => x.repeat(32));
    const bundle = {
      auditTrailData: { auditContext: { hashToSign: a!.toUpperCase() } },
      signatureReceipts: [{ targetHash: c, signature: { signedHash: b } }, null, 7, { targetHash: 'zz' }],
    };
    assert.deepEqual(documentHashesOf(bundle), [a, b, c]);
    for (const hostile of [null, 1, 'x', [], { signatureReceipts: 'no' }, { auditTrailData: null }])
      assert.deepEqual(documentHashesOf(hostile), []);
    const original = bytes('%PDF-1.4\nx\n%%EOF\n');
    const copy = Buffer.concat([original, bytes('more\n%%EOF\n')]);
    const named = { signatureReceipts: [{ signature: { signedHash: sha256(original) } }] };
    assert.deepEqual(originalInSignedCopy(copy, named), { length: original.length, sha256: sha256(original) });
    assert.equal(originalInSignedCopy(copy, {}), null);
  });

  it('property: any original ending at a %%EOF (any end of line) is found under any appended updates', () => {
    const eol = fc.constantFrom('', '\n', '\r', '\r\n');
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        eol,
        fc.uint8Array({ maxLength: 300 }),
        eol,
        (body, end, more, end2) => {
          const original = Buffer.concat([bytes('%PDF-1.7\n'), Buffer.from(body), bytes(`%%EOF${end}`)]);
          const copy = Buffer.concat([original, Buffer.from(more), bytes(`\n%%EOF${end2}`)]);
          const found = originalRevision(copy, [sha256(original)]);
          // The earliest prefix with that hash is the original (a shorter one with the same hash would be a collision).
          assert.deepEqual(found, { length: original.length, sha256: sha256(original) });
        },
      ),
      { numRuns: 300 },
    );
  });
});
