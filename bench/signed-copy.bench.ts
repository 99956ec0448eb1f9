/**
 * The cost of a signed copy: appending the attestation's pages and the bundle to an uploaded PDF (incremental
 * update, @cantoo/pdf-lib) and signing it (PAdES B-B), for originals of `--sizes` MiB (default 1 and 25: the
 * default upload limit); and of finding the original inside it again (core/documents/signed-copy.ts, one
 * SHA-256 pass with @noble/hashes, what the browser and the CLI run). CPU is this process's
 * (process.cpuUsage), wall time beside it; then, libsecp256k1 recoveries per CPU
 * second on one core in the same run, and the load average.
 *   node --import tsx bench/signed-copy.bench.ts [--sizes 1,25] [--runs 5]
 */
import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { pdfAttestationRenderer } from '../src/adapters/pdf/attestation-renderer.js';
import { padesSigner } from '../src/adapters/pdf/pades-signer.js';
import { pdfSignedCopyAssembler } from '../src/adapters/pdf/signed-copy-assembler.js';
import { serviceSigningIdentity } from '../src/adapters/pdf/signing-identity.js';
import { originalRevision } from '../src/core/documents/signed-copy.js';
import { sampleAttestationModel } from '../test/support/attestation-model.js';
import { secpRecoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: { sizes: { type: 'string', default: '1,25' }, runs: { type: 'string', default: '5' } },
});
const sizes = args.sizes.split(',').map(Number);
const runs = Number(args.runs);

/** A 10-page PDF of about `mib` MiB: its bulk is one image-like stream of random bytes per page. */
async function originalOf(mib: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 10; i++) {
    const page = doc.addPage();
    page.drawText(`page ${i + 1}`, { x: 50, y: 780, font, size: 12 });
    doc.context.register(doc.context.stream(randomBytes(Math.floor((mib * 1024 * 1024) / 10))));
  }
  return doc.save({ useObjectStreams: true });
}

const bundle = JSON.stringify({ signatureReceipts: [], complete: true });
const attestation = await pdfAttestationRenderer().render(sampleAttestationModel(bundle, 10));
const identity = await serviceSigningIdentity(randomBytes(32).toString('hex'), 'proofseal bench');
const signer = padesSigner({ identity: async () => identity, now: Date.now });
const assembler = pdfSignedCopyAssembler();
const attachment = { fileName: 'proof-bundle.json', bytes: new TextEncoder().encode(bundle), date: Date.now() };

const reference = secpRecoveriesPerSecond();
console.log(
  `signed copy (10-signer attestation appended, bundle attached, PAdES B-B), ${runs} runs each after 1 warm-up`,
);
for (const mib of sizes) {
  const original = await originalOf(mib);
  const hash = createHash('sha256').update(original).digest('hex');
  const make = async () => signer.sign(await assembler.assemble(original, attestation, attachment));
  let copy = await make();
  let cpuMake = 0;
  let wallMake = 0;
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    copy = await make();
    wallMake += performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    cpuMake += (cpu.user + cpu.system) / 1000;
  }
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++)
    if (originalRevision(copy, [hash])?.length !== original.length) throw new Error('not found');
  const cpu = process.cpuUsage(cpu0);
  const cpuFind = (cpu.user + cpu.system) / 1000 / runs;
  console.log(
    `  ${(original.length / 1048576).toFixed(1).padStart(5)} MiB original: make ${(cpuMake / runs).toFixed(0)} ms CPU ` +
      `(${(wallMake / runs).toFixed(0)} ms wall), ` +
      `+${Math.round((copy.length - original.length) / 1024)} KiB kept; find the original ${cpuFind.toFixed(0)} ms CPU`,
  );
}
console.log(
  `  reference: libsecp256k1 ${Math.round(reference.perCpuSecond)} recoveries per CPU second (one core); ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
);
