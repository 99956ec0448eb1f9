/**
 * Time to draw one attestation PDF for a request with `--signers` signers (default 10): the service's
 * renderer (pdf-lib: text, tables, QR code, the proof bundle attached) on a model with one receipt per
 * signer plus the audit trail's, `--runs` times after a warm-up. Printed beside references measured in the
 * same run (libsecp256k1 recoveries/s on one core, a bare node:http server) and the load average.
 *   node --import tsx bench/attestation.bench.ts [--signers 10] [--runs 100]
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pdfAttestationRenderer } from '../src/adapters/pdf/attestation-renderer.js';
import { sampleAttestationModel } from '../test/support/attestation-model.js';
import { bareHttpPerSecond, recoveriesPerSecond } from './lib/references.js';

const { values: args } = parseArgs({
  options: { signers: { type: 'string', default: '10' }, runs: { type: 'string', default: '100' } },
});
const signers = Number(args.signers);
const runs = Number(args.runs);

/** A bundle the size of a real one: a receipt (12-step proof, signature) per signer and the trail's. */
function bundleJson(count: number): string {
  const hex = () => randomBytes(32).toString('hex');
  const receipt = () => ({
    '@context': 'https://w3id.org/chainpoint/v2',
    type: 'ChainpointSHA256v2',
    targetHash: hex(),
    merkleRoot: hex(),
    proof: Array.from({ length: 12 }, (_, i) => (i % 2 ? { left: hex() } : { right: hex() })),
    anchors: [{ type: 'BTCOpReturn', sourceId: hex() }],
    signature: {
      signedHash: hex(),
      pubKey: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      signature: randomBytes(65).toString('base64'),
    },
  });
  return JSON.stringify({
    signatureReceipts: Array.from({ length: count }, receipt),
    auditTrailReceipt: receipt(),
    complete: true,
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const renderer = pdfAttestationRenderer();
const model = sampleAttestationModel(bundleJson(signers), signers);
for (let i = 0; i < 5; i++) await renderer.render(model);
const times: number[] = [];
let bytes = 0;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  bytes = (await renderer.render(model)).length;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const recover = await recoveriesPerSecond();
const bare = await bareHttpPerSecond();
const p50 = percentile(times, 0.5);
console.log(
  `attestation PDF, ${signers} signers, ${runs} runs (after 5 warm-up), ${Math.round(bytes / 1024)} KiB each`,
);
console.log(
  `  p50 ${p50.toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
);
console.log(`  reference, secp256k1 (${recover.backend}) recoveries on one core: ${Math.round(recover.perSecond)}/s`);
console.log(`  reference, bare node:http sequential keep-alive GETs: ${Math.round(bare)}/s`);
console.log(
  `  one attestation (p50) costs ${Math.round((p50 / 1000) * recover.perSecond)} recoveries, ${Math.round((p50 / 1000) * bare)} bare HTTP round trips`,
);
console.log(
  `  load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
