/**
 * The PDF signature check on hostile shapes (core/documents/pdf-signatures.ts): a /ByteRange that does not fit
 * the file, a gap that holds no DER, more signatures than the cap; and the verdict's parts
 * (core/documents/signed-copy-checks.ts) on signatures described by hand. Real signatures, sound and tampered,
 * are checked against pdfsig and openssl in test/verification/cli/verify-signed-copy.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkPdfSignatures,
  MAX_PDF_SIGNATURES,
  type PdfSignature,
} from '../../../src/core/documents/pdf-signatures.js';
import { signedCopyChecks } from '../../../src/core/documents/signed-copy-checks.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('PDF signatures found by scanning, never trusted', () => {
  it('a range that does not fit the file, a gap that is no hex DER: each a problem, no throw', async () => {
    const pdf = bytes(
      '%PDF-1.7\n1 0 obj\n<< /ByteRange [0 10 5 3] >>\nendobj\n2 0 obj\n<< /ByteRange [0 50 60 4] /Contents <zz> >>\nendobj\n%%EOF\n',
    );
    const found = await checkPdfSignatures(pdf);
    assert.equal(found.length, 2);
    assert.match(found[0]!.problem!, /its \/ByteRange \[0 10 5 3\] does not fit the file/);
    assert.match(found[1]!.problem!, /is not a \/Contents hex string holding DER/);
    assert.ok(found.every((s) => s.digestMatches === null && s.signatureValid === null));
  });

  it(`reads at most ${MAX_PDF_SIGNATURES} signatures of a file that names thousands`, async () => {
    const pdf = bytes(`%PDF-1.7\n${'<< /ByteRange [0 1 2 3] >>\n'.repeat(20_000)}`);
    const started = Date.now();
    assert.equal((await checkPdfSignatures(pdf)).length, MAX_PDF_SIGNATURES);
    assert.ok(Date.now() - started < 2000);
  });
});

describe('where a changed byte is', () => {
  const sig = (over: Partial<PdfSignature>): PdfSignature => ({
    index: 1,
    kind: 'signature',
    byteRange: [0, 1, 2, 3],
    end: 1000,
    digestMatches: true,
    signatureValid: true,
    signer: 'CN=proofseal',
    ...over,
  });
  const input = (signatures: PdfSignature[], bundleHolds = true, size = 1000) => ({
    size,
    search: { original: { length: 400, sha256: 'ab'.repeat(32) }, endsHashed: 2, stopped: false },
    documentHashes: ['ab'.repeat(32)],
    signatures,
    bundleHolds,
  });
  const failed = (checks: ReturnType<typeof signedCopyChecks>) =>
    checks.filter((c) => c.state === 'fail').map((c) => c.key);

  it('a sound copy: the original, its signature, the whole file', () => {
    assert.deepEqual(
      signedCopyChecks(input([sig({})])).map((c) => [c.key, c.state]),
      [
        ['copyOriginal', 'ok'],
        ['copySignatureOk', 'ok'],
        ['copyWholeFile', 'ok'],
      ],
    );
  });

  it('a digest that differs: the attestation pages when the bundle holds, the bundle when it does not', () => {
    const broken = sig({ digestMatches: false, signatureValid: null, problem: 'a signed byte was changed' });
    assert.deepEqual(failed(signedCopyChecks(input([broken]))), ['copyAppendedChanged']);
    assert.deepEqual(failed(signedCopyChecks(input([broken], false))), ['copyBundleChanged']);
  });

  it("the original's own signature, a later revision, no signature, bytes after the last one", () => {
    const own = sig({ end: 300, digestMatches: false, signatureValid: null, problem: 'x' });
    assert.deepEqual(failed(signedCopyChecks(input([own, sig({ index: 2 })]))), ['copyOriginalSignatureBad']);
    const later = sig({ index: 2, end: 1000, digestMatches: false, signatureValid: null, problem: 'x' });
    const checks = signedCopyChecks(input([sig({ end: 800 }), later]));
    assert.deepEqual(failed(checks), ['copyLaterRevisionChanged']);
    assert.deepEqual(checks.find((c) => c.state === 'fail')!.params.from, 800);
    assert.deepEqual(failed(signedCopyChecks(input([]))), ['copyUnsigned']);
    assert.deepEqual(failed(signedCopyChecks(input([sig({ end: 900 })]))), ['copyAfterSignature']);
  });
});
