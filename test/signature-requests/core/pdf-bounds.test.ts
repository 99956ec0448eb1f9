/**
 * Issue 32, row 8: what a verifier spends on a hostile PDF is bounded. A file of millions of `%%EOF` lines
 * (10.5 M revision ends in 24.5 MB took 130 s and 1.1 GB: a hash clone per end) is searched with at most
 * MAX_REVISION_ENDS digests; an object stream that inflates to a gigabyte (17.6 s, 2.2 GB) is refused having
 * decoded no more than the cap, before pdf-lib loads it; an attachment likewise under its own cap.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import {
  checkStructureBudget,
  DecodeBoundError,
  inflateBounded,
  MAX_STRUCTURE_BYTES,
} from '../../../src/core/documents/pdf-bounds.js';
import { MAX_REVISION_ENDS, revisionEndsOf, searchOriginal } from '../../../src/core/documents/signed-copy.js';
import { embeddedFiles } from '../../../src/adapters/pdf/embedded-files.js';
import { xrefBombPdf } from '../../support/hostile-pdfs.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** `size` zero bytes deflated (zlib), fed in 1 MiB pieces so the test never holds them. */
async function zeroBomb(size: number): Promise<Buffer> {
  const stream = zlib.createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const zero = Buffer.alloc(1 << 20);
  for (let i = 0; i < size >> 20; i += 1) if (!stream.write(zero)) await once(stream, 'drain');
  stream.end();
  await once(stream, 'end');
  return Buffer.concat(chunks);
}

describe('the original search on a file of %%EOF lines (row 8)', () => {
  const lines = Buffer.from('%%EOF\r\n'.repeat(3_500_000)); // 24.5 MB, 10.5 M revision ends
  const original = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\nstartxref\n9\n%%EOF\n');

  it('hashes at most MAX_REVISION_ENDS prefixes, and says that it stopped', () => {
    const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), lines]);
    const started = process.cpuUsage(); // CPU time: the bound holds whatever else the machine runs
    const search = searchOriginal(file, ['00'.repeat(32)]);
    const { user, system } = process.cpuUsage(started);
    const seconds = (user + system) / 1e6;
    assert.deepEqual(search, { original: null, endsHashed: MAX_REVISION_ENDS, stopped: true });
    // The old search hashed all 10.5 M ends (130 s); a generous bound, 100 times below that.
    assert.ok(seconds < 1.3, `${seconds} s`);
  });

  it('finds an original before the hostile lines at once, and one among the first ends', () => {
    const copy = Buffer.concat([original, lines]);
    assert.deepEqual(searchOriginal(copy, [sha256(original)]), {
      original: { length: original.length, sha256: sha256(original) },
      endsHashed: 2, // after `%%EOF`, then after its LF
      stopped: false,
    });
    const late = Buffer.concat([Buffer.from('%%EOF\n'.repeat(1000)), original, lines]);
    const prefix = late.subarray(0, 6000 + original.length);
    assert.equal(searchOriginal(late, [sha256(prefix)]).original?.length, prefix.length);
  });

  it('the ends are listed lazily: taking the first few does not walk the file', () => {
    const ends = revisionEndsOf(Buffer.concat([Buffer.from('%PDF-1.7\n'), lines]));
    assert.deepEqual([ends.next().value, ends.next().value, ends.next().value], [14, 15, 16]);
  });
});

describe('inflating under a cap (row 8)', () => {
  let bomb: Buffer; // 256 MiB of zeros (4 times the cap), about 250 KB deflated
  before(async () => {
    bomb = await zeroBomb(256 << 20);
  });

  it('an object stream of 256 MiB is refused having decoded no more than the cap', async () => {
    assert.ok(bomb.length < 300_000, `${bomb.length} bytes deflated`);
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
      ),
      bomb,
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    // CPU time of this process, not wall time: the bound holds whatever else the machine is running.
    const started = process.cpuUsage();
    await assert.rejects(checkStructureBudget(pdf), DecodeBoundError);
    await assert.rejects(embeddedFiles(pdf), /the PDF's object streams: more than 67108864 bytes once decoded/);
    const { user, system } = process.cpuUsage(started);
    const seconds = (user + system) / 1e6;
    assert.ok(seconds < 5, `${seconds} s of CPU (the unbounded read took 17.6 s)`);
  });

  it('a cross-reference stream declaring 10⁹ entries in 473 bytes is refused before pdf-lib loops over them', async () => {
    const bomb = xrefBombPdf();
    await assert.rejects(
      checkStructureBudget(bomb),
      /cross-reference stream's \/Size or \/Index: more than \d+ entries/,
    );
    await assert.rejects(
      embeddedFiles(bomb),
      DecodeBoundError,
      'the reader the CLI and the page share refuses it first',
    );
    await assert.rejects(checkStructureBudget(xrefBombPdf(bomb.length + 1)), DecodeBoundError);
    await checkStructureBudget(xrefBombPdf(3)); // a sound count passes
  });

  it('inflates what is under the cap exactly, and stops one byte over it', async () => {
    const data = Buffer.from('proof bundle '.repeat(1000));
    assert.deepEqual(Buffer.from(await inflateBounded(zlib.deflateSync(data), data.length)), data);
    await assert.rejects(inflateBounded(zlib.deflateSync(data), data.length - 1), DecodeBoundError);
    assert.equal((await inflateBounded(Buffer.from('not zlib'), 10)).length, 0, 'junk decodes to nothing');
  });

  it('object streams under the cap, together, pass; over it together, refused', async () => {
    const small = zlib.deflateSync(Buffer.alloc(40 << 20));
    const obj = (n: number) =>
      Buffer.concat([
        Buffer.from(`${n} 0 obj\n<< /Type /ObjStm /Filter /FlateDecode /Length ${small.length} >>\nstream\n`),
        small,
        Buffer.from('\nendstream\nendobj\n'),
      ]);
    await checkStructureBudget(Buffer.concat([Buffer.from('%PDF-1.7\n'), obj(1)]));
    await assert.rejects(
      checkStructureBudget(Buffer.concat([Buffer.from('%PDF-1.7\n'), obj(1), obj(2)])),
      DecodeBoundError,
    );
    assert.ok(MAX_STRUCTURE_BYTES < 80 << 20);
  });
});
