// tier: slow (measured: 62.9 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Issue 32, rows 1-4, over HTTP on both stores, with the PDF worker pool as src/runtime.ts wires it (the signed
 * copy's update and the signature field in its threads, uploads checked in them):
 * - each hostile shape is refused at upload with 400 INVALID_DOCUMENT, nothing kept (on main: 200);
 * - the same files kept before the check existed (the check switched off for the upload), signed, their proofs
 *   confirmed: the attestation job ends without throwing while `/health` answers within a second (on main the
 *   process died of heap exhaustion, stalled 10-130 s, or the job threw); the refusal is kept, so
 *   `…/file?amended=true` answers 409 SIGNED_COPY_NOT_AVAILABLE with the reason every time (on main: 500);
 *   the job run again, as after a restart, reads no PDF (on main it killed the process again); the
 *   attestation mails carry the attestation and say why there is no signed copy;
 * - a document within the bounds that its thread cannot finish in time (10,000 pages and 35,000 more objects, a
 *   2 s limit here) ends the same way, stopped by the thread's limit.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import {
  workerDocumentInspector,
  workerSignaturePreparer,
  workerSignedCopyAssembler,
} from '../../../src/adapters/pdf/pdf-sandbox.js';
import { PDF_WORKER_LIMITS, pdfWorkerPool, type PdfWorkerPool } from '../../../src/adapters/pdf/pdf-worker-pool.js';
import { attestationPdf } from '../../../src/app/signature-requests/attestation/attestation-pdf.js';
import { signedCopyForMail } from '../../../src/app/signature-requests/attestation/signed-copy.js';
import { sealAuditTrail } from '../../../src/app/signature-requests/audit-trail.js';
import type { DocumentDeps } from '../../../src/app/signature-requests/document/document.port.js';
import { completeProofBundles } from '../../../src/app/signature-requests/proof-bundle.js';
import { produceAttestationJob } from '../../../src/jobs/signature-requests/signature-requests.jobs.js';
import { insertBatch } from '../../support/anchors.js';
import { testConfig } from '../../support/fixtures.js';
import { flatPdf, hostilePdfs, inflateBombPdf } from '../../support/hostile-pdfs.js';
import { startSmtp, type TestSmtp } from '../../support/smtp.js';
import { storeKinds } from '../../support/stores.js';
import { textPdf } from '../../support/test-pdfs.js';
import { deliverQueued, MAIL } from '../../support/workflow-mail.js';
import { createRequest, delegate, openBench, requestBody, type Bench } from '../fixture.js';
import { pdfAttestation } from '../../support/signed-copy-fixture.js';

const kinds = await storeKinds();
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The hostile files: the cheap shapes and an object stream inflating to 64 MiB (1 GiB in the issue: same cap). */
async function shapes(): Promise<[string, Buffer][]> {
  return [
    ...Object.entries(hostilePdfs()),
    ['object stream inflating to 64 MiB', await inflateBombPdf(64 * 1024 ** 2)],
  ];
}

for (const kind of kinds) {
  describe(`hostile PDFs on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    let smtp: TestSmtp;
    let pool: PdfWorkerPool;
    /** The operations the pool was asked for, in order. */
    const asked: string[] = [];
    let documents: { -readonly [K in keyof DocumentDeps]: DocumentDeps[K] };
    /** True in the last case only: the signed copy's assembly gets 2 s. */
    let shortAssemble = false;

    before(async () => {
      // In the last case below (10,000 pages and 35,000 more objects, several seconds on a quiet machine) the
      // updates get 2 s a task. The hostile shapes keep the service's own limit: they are refused in milliseconds
      // (checked before pdf-lib loads), but a thread started on a loaded machine may take longer than 2 s to
      // answer, and the refusal would then be the time limit's, not the file's.
      const threads = pdfWorkerPool(PDF_WORKER_LIMITS);
      const small = pdfWorkerPool({ ...PDF_WORKER_LIMITS, timeoutMs: 2000 });
      pool = {
        run: (task) => (asked.push(task.op), (task.op === 'assemble' && shortAssemble ? small : threads).run(task)),
        close: () => Promise.all([threads.close(), small.close()]).then(() => undefined),
      };
      smtp = await startSmtp();
      b = await openBench(
        kind,
        {
          attestation: await pdfAttestation({
            signer: { prepare: workerSignaturePreparer(pool) },
            copies: workerSignedCopyAssembler(pool),
          }),
          mail: MAIL,
        },
        { config: testConfig({}) },
      );
      documents = b.deps.documents as typeof documents;
      documents.inspector = workerDocumentInspector(pool);
    });
    after(async () => {
      await pool?.close();
      await smtp?.stop();
      await b?.close();
    });

    const upload = (id: string, content: Buffer, type = 'application/pdf') =>
      b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${id}/file?fileName=contract.pdf`,
        headers: { ...b.auth, 'content-type': type },
        payload: content,
      });
    const amendedOf = (id: string) =>
      b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}/file?amended=true`, headers: b.auth });

    /** A DRAFT for `content` and its upload's answer. */
    async function draftWith(content: Buffer) {
      const made = await createRequest(b, requestBody({ state: 'DRAFT', hashToSign: sha256(content) }));
      return { made, res: await upload(made.id, content) };
    }

    /** `content` uploaded with the check off (a file kept before it existed), sent, signed by all, proofs confirmed. */
    async function completedWith(content: Buffer) {
      const inspector = documents.inspector;
      delete documents.inspector;
      const { made, res } = await draftWith(content).finally(() => (documents.inspector = inspector));
      assert.equal(res.statusCode, 200, res.body);
      const go = await b.app.inject({
        method: 'POST',
        url: `/v1/signatureRequest/${made.id}/transition`,
        headers: { ...b.auth, 'content-type': 'application/json' },
        payload: '"PENDING"',
      });
      assert.equal(go.statusCode, 200, go.body);
      for (const signeeId of made.signeeIds) assert.equal((await delegate(b, made.id, signeeId)).statusCode, 200);
      assert.equal(await sealAuditTrail(b.deps, { requestId: made.id }), 'sealed');
      const request = (await b.deps.store.signatureRequests.findById(made.id))!;
      const anchors = [...request.signers.map((s) => s.anchorId!), request.auditTrailAnchorId!];
      await insertBatch(b.s.db, anchors, { status: 'CONFIRMED', confirmations: 6 });
      await completeProofBundles(b.deps, { limit: 100 });
      return made.id;
    }

    /** Runs the attestation job while `/health` is asked every 100 ms; the slowest answer, ms. */
    async function jobWithHealth(requestId: string): Promise<{ job: PromiseSettledResult<void>; slowestMs: number }> {
      let done = false;
      let slowest = 0;
      const job = produceAttestationJob(b.deps)
        .handle({ requestId })
        .finally(() => (done = true));
      while (!done) {
        const t0 = performance.now();
        const health = await b.app.inject({ method: 'GET', url: '/health' });
        slowest = Math.max(slowest, performance.now() - t0);
        assert.equal(health.statusCode, 200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [settled] = await Promise.allSettled([job]);
      return { job: settled!, slowestMs: slowest };
    }

    it('refuses each hostile shape at upload: 400 INVALID_DOCUMENT with the reason, nothing kept', async () => {
      for (const [name, pdf] of await shapes()) {
        const { made, res } = await draftWith(pdf);
        assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
        assert.equal(res.json().code, 'INVALID_DOCUMENT', name);
        assert.match(res.json().message, /^the PDF cannot be accepted: /, name);
        const kept = await b.app.inject({
          method: 'GET',
          url: `/v1/signatureRequest/${made.id}/file`,
          headers: b.auth,
        });
        assert.equal(kept.json().code, 'NO_DOCUMENT', name);
      }
      assert.match((await draftWith(pageLoop())).res.json().message, /reaches object 2 twice/);
      // A real PDF, a PDF of 10,000 pages (the most accepted), a PDF with no structure and a text file pass.
      for (const ok of [Buffer.from(await textPdf(2)), flatPdf(10_000), Buffer.from('%PDF-1.7\n%%EOF\n')])
        assert.equal((await draftWith(ok)).res.statusCode, 200);
      const text = await createRequest(b, requestBody({ state: 'DRAFT', hashToSign: sha256(Buffer.from('[[[[')) }));
      assert.equal((await upload(text.id, Buffer.from('[[[['), 'text/plain')).statusCode, 200);
    });

    it('a hostile PDF kept before the check: the request completes, the refusal is final and said', async () => {
      for (const [name, pdf] of await shapes()) {
        const id = await completedWith(pdf);
        const { job, slowestMs } = await jobWithHealth(id);
        assert.equal(job.status, 'fulfilled', `${name}: ${String((job as PromiseRejectedResult).reason)}`);
        assert.ok(slowestMs < 1000, `${name}: /health took ${slowestMs.toFixed(0)} ms`);
        const kept = await b.deps.store.signedCopies.find(id);
        assert.ok(kept && 'refusal' in kept, `${name}: the refusal is kept`);
        for (let i = 0; i < 2; i++) {
          const res = await amendedOf(id);
          assert.equal(res.statusCode, 409, `${name}: ${res.body}`);
          assert.equal(res.json().code, 'SIGNED_COPY_NOT_AVAILABLE');
          assert.match(res.json().message, /^the uploaded PDF is refused: /, name);
        }
        const attestation = await b.app.inject({
          method: 'GET',
          url: `/v1/signatureRequest/${id}/attestation`,
          headers: b.auth,
        });
        assert.equal(attestation.statusCode, 200, `${name}: the attestation is made without the copy`);
        // Run again, as after a restart: nothing asks the PDF threads for the copy any more.
        const before = asked.filter((op) => op === 'assemble').length;
        await produceAttestationJob(b.deps).handle({ requestId: id });
        assert.equal(asked.filter((op) => op === 'assemble').length, before, `${name}: not tried again`);
      }
    });

    it('the attestation mails carry the attestation and say why there is no signed copy', async () => {
      await completedWith(pageLoop());
      const delivered = await deliverQueued(b, smtp, {
        attestation: (rid) => attestationPdf(b.deps, rid),
        signedCopy: (rid) => signedCopyForMail(b.deps, rid, 15 * 1024 * 1024),
      });
      const ours = delivered.filter((m) => m.type === 'signatureAttestationEmail');
      assert.ok(ours.length >= 3, 'owner and both signers');
      for (const m of ours) {
        assert.deepEqual(
          m.mail.attachments.map((a) => a.filename),
          ['attestation.pdf'],
        );
        assert.match(m.mail.text ?? '', /No signed copy of the document could be made \(the uploaded PDF is refused: /);
        assert.match(String(m.mail.html), /<p>No signed copy of the document could be made/);
      }
    });

    it('a document within the bounds that its thread cannot finish in time: the same final refusal', async () => {
      const id = await completedWith(await heavyPdf());
      shortAssemble = true;
      const { job, slowestMs } = await jobWithHealth(id).finally(() => (shortAssemble = false));
      assert.equal(job.status, 'fulfilled', String((job as PromiseRejectedResult).reason));
      assert.ok(slowestMs < 1000, `/health took ${slowestMs.toFixed(0)} ms`);
      const res = await amendedOf(id);
      assert.equal(res.statusCode, 409, res.body);
      assert.match(res.json().message, /cannot take the signed copy: it was not processed within 2 s/);
    });
  });
}

/** Row 4's file with a random comment, so each use is a file of its own (hashToSign differs). */
function pageLoop(): Buffer {
  const pdf = hostilePdfs()['page tree loop']!;
  return Buffer.concat([pdf, Buffer.from(`%${randomBytes(8).toString('hex')}\n`)]);
}

/** Near the worst the bounds accept: 10,000 pages and 35,000 more objects, in object streams. */
async function heavyPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 10_000; i++) doc.addPage([100, 100]);
  for (let i = 0; i < 35_000; i++) doc.context.register(doc.context.obj({ A: i }));
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}
