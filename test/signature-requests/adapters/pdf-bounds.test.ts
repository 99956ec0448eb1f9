/**
 * Issue 32, rows 1-4: the structure check of users' PDFs (pdf-bounds.ts) refuses each hostile shape with its
 * reason before pdf-lib reads it, takes real PDFs (pdf-lib's, with and without object streams) with their page
 * count, and never throws on random mutations of a real PDF; the signed copy's assembler (in this thread, as
 * the bench runs it) refuses the hostile shapes with SIGNED_COPY_NOT_AVAILABLE where on main it looped, ran out
 * of heap or overflowed its stack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PDFDocument } from '@cantoo/pdf-lib';
import { inspectPdf, PDF_BOUNDS } from '../../../src/adapters/pdf/pdf-bounds.js';
import { pdfSignedCopyAssembler } from '../../../src/adapters/pdf/signed-copy-assembler.js';
import {
  dagPageTreePdf,
  deepNestingPdf,
  flatPdf,
  inflateBombPdf,
  objectStreamPdf,
  pageLoopPdf,
  pdfOf,
  xrefBombPdf,
  xrefTableBombPdf,
} from '../../support/hostile-pdfs.js';
import { textPdf } from '../../support/test-pdfs.js';

const refused = (pdf: Uint8Array) => {
  const found = inspectPdf(pdf);
  assert.equal(found.kind, 'refused', JSON.stringify(found));
  return (found as { reason: string }).reason;
};

describe('the structure check of an untrusted PDF', () => {
  it('row 1: an xref stream claiming 10⁹ objects in 473 bytes, and a table claiming as many', () => {
    assert.ok(xrefBombPdf().length < 500);
    assert.match(refused(xrefBombPdf()), /cross-reference \/Size 1000000000 is more than \d+/);
    assert.match(
      refused(xrefBombPdf(400_000)),
      /\/Size 400000 is more than/,
      'also under maxObjects: the file is too small',
    );
    assert.match(refused(xrefTableBombPdf()), /table claims 1000000000 entries/);
  });

  it('row 2: a page tree that is a DAG of 23 levels (each node /Kids [X X])', () => {
    assert.match(refused(dagPageTreePdf(23)), /reaches object \d+ twice \(a loop or a shared node\)/);
  });

  it('row 3: an object stream inflating to 64 MiB (1 GiB in the issue) is stopped at the cap', async () => {
    assert.match(refused(await inflateBombPdf(64 * 1024 * 1024)), /decodes to more than 33554432 bytes/);
    const small = { ...PDF_BOUNDS, maxStreamBytes: 4 * 1024 * 1024, maxDecodedBytes: 1024 * 1024 };
    assert.match(
      (inspectPdf(await inflateBombPdf(2 * 1024 * 1024), small) as { reason: string }).reason,
      /decode to more than 1048576 bytes/,
    );
  });

  it('row 4: a page tree that loops (/Kids [3 0 R 2 0 R])', () => {
    assert.match(refused(pageLoopPdf()), /reaches object 2 twice/);
  });

  it('nesting, tree depth, /Count and the page count are bounded', () => {
    assert.match(refused(deepNestingPdf()), /nested deeper than 100/);
    assert.match(refused(flatPdf(PDF_BOUNDS.maxPages + 1)), /more than 10000 pages/);
    assert.deepEqual(inspectPdf(flatPdf(PDF_BOUNDS.maxPages)), { kind: 'ok', pages: PDF_BOUNDS.maxPages });
    const deep = ['<< /Type /Catalog /Pages 2 0 R >>'];
    for (let i = 0; i < 40; i++) deep.push(`<< /Type /Pages /Kids [${i + 3} 0 R] /Count 1 >>`);
    deep.push('<< /Type /Page >>');
    assert.match(refused(pdfOf(deep)), /deeper than 32 levels/);
    const lying = pdfOf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>',
      '<< /Type /Page >>',
    ]);
    assert.match(refused(lying), /says \/Count 1000000 and holds 1 pages/);
  });

  it('takes real PDFs with their page count: plain, object streams, an object stream redefining the tree', async () => {
    const doc = await PDFDocument.load(await textPdf(3));
    assert.deepEqual(inspectPdf(await doc.save({ useObjectStreams: true })), { kind: 'ok', pages: 3 });
    assert.deepEqual(inspectPdf(await doc.save({ useObjectStreams: false })), { kind: 'ok', pages: 3 });
    assert.deepEqual(inspectPdf(objectStreamPdf()), { kind: 'ok', pages: 1 });
    assert.equal((await PDFDocument.load(objectStreamPdf())).getPageCount(), 1, 'pdf-lib reads it so too');
  });

  it('calls a file with no structure unreadable, not refused (the upload lets it through)', () => {
    assert.equal(inspectPdf(Buffer.from('%PDF-1.7\n%%EOF\n')).kind, 'unreadable');
    assert.equal(inspectPdf(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF\n')).kind, 'unreadable');
    assert.equal(inspectPdf(Buffer.from('%PDF-1.7\n<</JS (app.alert(1))>>\n(((((')).kind, 'unreadable');
  });

  it('never throws on random mutations of a real PDF (bytes flipped, cut, repeated, numbers made huge)', async () => {
    const real = Buffer.from(await (await PDFDocument.load(await textPdf(2))).save({ useObjectStreams: true }));
    const plain = Buffer.from(await textPdf(2));
    type Mutation = (b: Buffer) => Buffer;
    const mutation: fc.Arbitrary<Mutation> = fc.oneof<fc.Arbitrary<Mutation>[]>(
      fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }).map(({ at, byte }) => (b: Buffer) => {
        const c = Buffer.from(b);
        if (c.length > 0) c[at % c.length] = byte;
        return c;
      }),
      fc.nat().map((at) => (b: Buffer) => b.subarray(0, Math.max(1, at % b.length))),
      fc
        .record({ at: fc.nat(), len: fc.nat(400), times: fc.integer({ min: 1, max: 50 }) })
        .map(({ at, len, times }) => (b: Buffer) => {
          const s = at % b.length;
          return Buffer.concat([b.subarray(0, s), ...Array(times).fill(b.subarray(s, s + len)), b.subarray(s)]);
        }),
      fc.constantFrom('999999999', '-1', '0', '1e9', '[', '<<', '>>', ']', 'R', 'obj').chain((tok) =>
        fc.nat().map((at) => (b: Buffer) => {
          const text = b.toString('latin1');
          const nums = [...text.matchAll(/\d+/g)];
          const m = nums[at % Math.max(1, nums.length)];
          if (!m) return b;
          return Buffer.from(text.slice(0, m.index) + tok + text.slice(m.index + m[0].length), 'latin1');
        }),
      ),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 4 }), (objstm, steps) => {
        const pdf = steps.reduce<Buffer>((b, step) => step(b), objstm ? real : plain);
        const found = inspectPdf(pdf);
        assert.ok(['ok', 'refused', 'unreadable'].includes(found.kind));
        if (found.kind === 'ok') assert.ok(found.pages >= 1 && found.pages <= PDF_BOUNDS.maxPages);
      }),
      { numRuns: 400 },
    );
  });

  it("the signed copy's assembler refuses each shape with SIGNED_COPY_NOT_AVAILABLE before pdf-lib reads it", async () => {
    const assembler = pdfSignedCopyAssembler();
    const attestation = await textPdf(1);
    const attachment = { fileName: 'proof-bundle.json', bytes: new Uint8Array([123, 125]), date: 0 };
    for (const pdf of [
      xrefBombPdf(),
      dagPageTreePdf(23),
      pageLoopPdf(),
      deepNestingPdf(),
      await inflateBombPdf(40 * 1024 * 1024),
    ]) {
      await assert.rejects(assembler.assemble(pdf, attestation, attachment), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'SIGNED_COPY_NOT_AVAILABLE');
        assert.match(err.message, /^the uploaded PDF is refused: /);
        return true;
      });
    }
  });
});
