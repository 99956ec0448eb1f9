// tier: slow (measured: 17.0 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Issue 32: users' PDFs are read in worker threads. A document that takes its thread past its time or heap
 * limit costs that thread only: the task is refused with the limit it broke, the event loop of this process
 * stays free meanwhile, and the next task is answered. Random mutations of a real PDF that pass the
 * structure check get a signed-copy update or a refusal from the thread, never a fault.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { PDFDocument } from '@cantoo/pdf-lib';
import { inspectPdf } from '../../../src/adapters/pdf/pdf-bounds.js';
import { workerSignedCopyAssembler } from '../../../src/adapters/pdf/pdf-sandbox.js';
import { PDF_WORKER_LIMITS, pdfWorkerPool, PdfLimitError } from '../../../src/adapters/pdf/pdf-worker-pool.js';
import { hostilePdfs } from '../../support/hostile-pdfs.js';
import { textPdf } from '../../support/test-pdfs.js';

const attachment = { fileName: 'proof-bundle.json', bytes: new Uint8Array([123, 125]), date: 0 };

/** The longest the event loop was late on a 20 ms timer while `work` ran. */
async function lateWhile<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; lateMs: number }> {
  let late = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    late = Math.max(late, now - last - 20);
    last = now;
  }, 20);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { result: result!, lateMs: late };
}

describe('the PDF worker pool', () => {
  const pools: { close(): Promise<void> }[] = [];
  after(() => Promise.all(pools.map((p) => p.close())));
  const poolOf = (limits: Partial<typeof PDF_WORKER_LIMITS>) => {
    const pool = pdfWorkerPool({ ...PDF_WORKER_LIMITS, ...limits });
    pools.push(pool);
    return pool;
  };

  it('stops a document past its wall time; the event loop stays free, and the next task is answered', async () => {
    const pool = poolOf({ timeoutMs: 1500 });
    const attestation = await textPdf(1);
    // Near the worst the bounds accept: 10,000 pages and 35,000 more objects. Its update takes several seconds on
    // a quiet machine (loading pdf-lib in the new thread included), more than this pool allows.
    const heavy = await PDFDocument.create();
    for (let i = 0; i < 10_000; i++) heavy.addPage([100, 100]);
    for (let i = 0; i < 35_000; i++) heavy.context.register(heavy.context.obj({ A: i }));
    const original = await heavy.save({ useObjectStreams: true });
    const slow = pool.run({ op: 'assemble', original, attestation, attachment });
    const { result, lateMs } = await lateWhile(slow);
    assert.equal(result.status, 'rejected');
    const reason = (result as PromiseRejectedResult).reason as Error;
    assert.ok(reason instanceof PdfLimitError, String(reason));
    assert.match(reason.message, /not processed within 1\.5 s/);
    assert.ok(lateMs < 1000, `the event loop was late ${lateMs.toFixed(0)} ms`);
    const next = await pool.run({ op: 'inspect', pdf: await textPdf(2) });
    assert.deepEqual(next, { ok: { kind: 'ok', pages: 2 } });
  });

  it('stops a document past its heap (resourceLimits), and the next task is answered', async () => {
    // 16 MB: room for a thread and a small PDF (12 MB is), not for the update of 10,000 pages (32 MB is).
    const pool = poolOf({ maxHeapMb: 16, timeoutMs: 60_000 });
    const attestation = await textPdf(1);
    const big = await PDFDocument.create();
    for (let i = 0; i < 10_000; i++) big.addPage([100, 100]);
    const original = await big.save({ useObjectStreams: false });
    const broke = await pool.run({ op: 'assemble', original, attestation, attachment }).then(
      () => null,
      (err: Error) => err,
    );
    assert.ok(broke instanceof PdfLimitError, String(broke));
    assert.match(broke.message, /needs more than 16 MB/);
    assert.deepEqual(await pool.run({ op: 'inspect', pdf: await textPdf(1) }), { ok: { kind: 'ok', pages: 1 } });
  });

  it('refuses each hostile shape of issue 32 as SIGNED_COPY_NOT_AVAILABLE, with its reason', async () => {
    const assembler = workerSignedCopyAssembler(poolOf({}));
    const attestation = await textPdf(1);
    for (const [name, pdf] of Object.entries(hostilePdfs())) {
      await assert.rejects(assembler.assemble(pdf, attestation, attachment), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'SIGNED_COPY_NOT_AVAILABLE', name);
        assert.match(err.message, /^the uploaded PDF is refused: /, name);
        return true;
      });
    }
  });

  it('random mutations of a real PDF that pass the check: an update or a refusal, never a fault', async () => {
    const assembler = workerSignedCopyAssembler(poolOf({ timeoutMs: 10_000 }));
    const attestation = await textPdf(1);
    const real = Buffer.from(await (await PDFDocument.load(await textPdf(2))).save({ useObjectStreams: true }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }),
        async (flips) => {
          const pdf = Buffer.from(real);
          for (const { at, byte } of flips) pdf[at % pdf.length] = byte;
          fc.pre(inspectPdf(pdf).kind === 'ok');
          const made = await assembler.assemble(pdf, attestation, attachment).then(
            (update) => update,
            (err: Error & { code?: string }) => err,
          );
          if (made instanceof Error) assert.equal(made.code, 'SIGNED_COPY_NOT_AVAILABLE', made.message);
          else assert.ok(Buffer.from(made.subarray(0, pdf.length)).equals(pdf), 'the original is the prefix');
        },
      ),
      { numRuns: 25 },
    );
  });
});
