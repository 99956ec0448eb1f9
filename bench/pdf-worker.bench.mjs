/**
 * The cost of reading users' PDFs in a worker thread (issue 32), from the built service (`npm run build` first:
 * a thread started from the sources would pay tsx's compilation too). For a 10-page original of `--sizes` MiB,
 * the wall time of one signed copy (the update appended, then the signature field added: the two steps that
 * read the user's PDF) made: in this thread; in a pooled thread, kept warm; in a new thread each time (its
 * start and the loading of pdf-lib included). Then the check of the upload alone (pdf-bounds.ts) in a pooled thread,
 * the smallest heap cap (resourceLimits) each needs, and the worst document the bounds accept (10,000 pages, flat)
 * made in a new thread, with the smallest heap cap it needs.
 * The reference of the same run: libsecp256k1 recoveries on one core (bench/lib/references.ts), before and after.
 *   npm run build && node --import tsx bench/pdf-worker.bench.mjs [--sizes 1,25] [--runs 5]
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { assembleSignedCopy } from '../dist/adapters/pdf/signed-copy-assembler.js';
import { withSignatureField } from '../dist/adapters/pdf/pades-signer.js';
import { PDF_BOUNDS } from '../dist/adapters/pdf/pdf-bounds.js';
import { pdfWorkerPool, PDF_WORKER_LIMITS } from '../dist/adapters/pdf/pdf-worker-pool.js';
import { secpRecoveriesPerSecond } from './lib/references.ts';

const secpLine = (when) => {
  const r = secpRecoveriesPerSecond(2);
  return `  reference (${when}): libsecp256k1 ${r.wall.toFixed(0)} recoveries/s on one core (${r.perCpuSecond.toFixed(0)} per CPU second)`;
};
console.log(secpLine('before'));

const { values: args } = parseArgs({
  options: { sizes: { type: 'string', default: '1,25' }, runs: { type: 'string', default: '5' } },
});
const runs = Number(args.runs);

async function originalOf(mib) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 10; i++) {
    doc.addPage().drawText(`page ${i + 1}`, { x: 50, y: 780, font, size: 12 });
    doc.context.register(doc.context.stream(randomBytes(Math.floor((mib * 1024 * 1024) / 10))));
  }
  return doc.save({ useObjectStreams: true });
}

/** A one-page PDF of `count` more objects, in object streams: near the most objects the bounds accept. */
async function manyObjectsOf(count) {
  const doc = await PDFDocument.create();
  doc.addPage([100, 100]);
  for (let i = 0; i < count; i++) doc.context.register(doc.context.obj({ A: i }));
  return doc.save({ useObjectStreams: true });
}

/** A flat page tree of `pages` pages: the most pages the bounds accept. */
async function flatOf(pages) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return doc.save({ useObjectStreams: true });
}

const attestationDoc = await PDFDocument.create();
attestationDoc
  .addPage()
  .drawText('attestation', { x: 50, y: 700, font: await attestationDoc.embedFont(StandardFonts.Helvetica) });
const attestation = await attestationDoc.save();
const attachment = { fileName: 'proof-bundle.json', bytes: new TextEncoder().encode('{}'), date: Date.now() };
const spec = { type: 'Sig', subFilter: 'ETSI.CAdES.detached', date: Date.now() };
const dss = { certs: [], crls: [] };

async function inThread(original) {
  const update = await assembleSignedCopy(original, attestation, attachment, PDF_BOUNDS);
  return withSignatureField(update, spec, 8192, dss);
}
async function inPool(pool, original) {
  const a = await pool.run({ op: 'assemble', original, attestation, attachment });
  if (!a.ok) throw new Error(JSON.stringify(a));
  const b = await pool.run({ op: 'prepare-signature', pdf: a.ok, spec, room: 8192, dss });
  if (!b.ok) throw new Error(JSON.stringify(b));
  return b.ok;
}
async function median(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)].toFixed(0);
}

console.log(
  `signed copy's two PDF steps (update appended, signature field added), median of ${runs} runs after 1 warm-up`,
);
const pool = pdfWorkerPool();
for (const mib of args.sizes.split(',').map(Number)) {
  const original = await originalOf(mib);
  const here = await median(() => inThread(original));
  const pooled = await median(() => inPool(pool, original));
  const spawned = await median(async () => {
    const own = pdfWorkerPool();
    try {
      await inPool(own, original);
    } finally {
      await own.close();
    }
  });
  const check = await median(() => pool.run({ op: 'inspect', pdf: original }));
  console.log(
    `  ${mib.toFixed(1).padStart(5)} MiB: this thread ${here} ms, pooled thread ${pooled} ms, new thread each ${spawned} ms; upload check ${check} ms`,
  );
}
/** The smallest heap cap (MB) of a thread that makes the signed copy's two steps of `original`. */
async function smallestHeap(original) {
  for (const mb of [16, 32, 64, 128, 256, 512]) {
    const probe = pdfWorkerPool({ ...PDF_WORKER_LIMITS, maxHeapMb: mb });
    const ok = await inPool(probe, original).then(
      () => true,
      () => false,
    );
    await probe.close();
    if (ok) return mb;
  }
  return null;
}

for (const mib of args.sizes.split(',').map(Number))
  console.log(
    `  ${mib.toFixed(1).padStart(5)} MiB: the smallest heap cap that makes it: ${await smallestHeap(await originalOf(mib))} MB`,
  );
for (const [name, worst] of [
  [`${PDF_BOUNDS.maxPages} pages`, await flatOf(PDF_BOUNDS.maxPages)],
  // Less than the bound by the object streams pdf-lib adds (one per 50 objects).
  [`${PDF_BOUNDS.maxObjects - 5000} objects`, await manyObjectsOf(PDF_BOUNDS.maxObjects - 5000)],
]) {
  const t0 = performance.now();
  const own = pdfWorkerPool({ ...PDF_WORKER_LIMITS });
  await inPool(own, worst);
  const worstMs = performance.now() - t0;
  await own.close();
  console.log(
    `  worst accepted (${name}, ${(worst.length / 1024).toFixed(0)} KiB): ${worstMs.toFixed(0)} ms in a new thread; ` +
      `the smallest heap cap that makes it: ${await smallestHeap(worst)} MB`,
  );
}
console.log(`  this process's peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
console.log(secpLine('after'));
console.log(
  `  load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
await pool.close();
