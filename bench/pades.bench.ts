/**
 * CPU to make one signed attestation: the renderer, then the PAdES signer (incremental update, CMS with the
 * service's P-256 key), without a TSA (B-B) and with a real one on the loopback (B-T, then the DSS and the
 * document time-stamp: two tokens from `openssl ts -reply` behind node:http, test/support/openssl-tsa.ts). CPU is this process's (process.cpuUsage, user + system):
 * the HTTP listener of the TSA runs here and is counted, the openssl child that answers is not; wall time
 * beside it. `--signers` signers (default 10), `--runs` times each (default 40) after a warm-up.
 *   node --import tsx bench/pades.bench.ts [--signers 10] [--runs 40]
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createSafeFetch } from '../src/adapters/net/safe-fetch.js';
import { pdfAttestationRenderer } from '../src/adapters/pdf/attestation-renderer.js';
import { padesSigner } from '../src/adapters/pdf/pades-signer.js';
import { serviceSigningIdentity } from '../src/adapters/pdf/signing-identity.js';
import { rfc3161Client } from '../src/adapters/pdf/tsa-client.js';
import type { PdfSigner } from '../src/app/signature-requests/attestation/pdf-signer.port.js';
import { sampleAttestationModel } from '../test/support/attestation-model.js';
import { startOpensslTsa } from '../test/support/openssl-tsa.js';

const { values: args } = parseArgs({
  options: { signers: { type: 'string', default: '10' }, runs: { type: 'string', default: '40' } },
});
const signers = Number(args.signers);
const runs = Number(args.runs);

const bundle = JSON.stringify({
  signatureReceipts: Array.from({ length: signers }, () => ({ targetHash: randomBytes(32).toString('hex') })),
  complete: true,
});
const renderer = pdfAttestationRenderer();
const model = sampleAttestationModel(bundle, signers);
const identity = await serviceSigningIdentity(randomBytes(32).toString('hex'), 'proofseal bench');
const tsa = await startOpensslTsa();
const bb = padesSigner({ identity: async () => identity, now: Date.now });
const bt = padesSigner({
  identity: async () => identity,
  now: Date.now,
  tsa: rfc3161Client(createSafeFetch({ allowPrivateUrls: true }), [tsa.url]),
});

/** Mean CPU ms and p50 wall ms of `runs` attestations rendered and signed by `signer` (none: render only). */
async function measure(signer: PdfSigner | null): Promise<{ cpu: number; wall: number; bytes: number }> {
  const once = async () => {
    const pdf = await renderer.render(model);
    return signer ? signer.sign(pdf) : pdf;
  };
  for (let i = 0; i < 5; i++) await once();
  const walls: number[] = [];
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    bytes = (await once()).length;
    walls.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  walls.sort((a, b) => a - b);
  return { cpu: (cpu.user + cpu.system) / 1000 / runs, wall: walls[Math.floor(runs / 2)]!, bytes };
}

const render = await measure(null);
const signedBb = await measure(bb);
const signedBt = await measure(bt);
await tsa.close();
const line = (name: string, m: { cpu: number; wall: number; bytes: number }) =>
  console.log(
    `  ${name.padEnd(36)} ${m.cpu.toFixed(1)} ms CPU, p50 ${m.wall.toFixed(1)} ms wall, ${Math.round(m.bytes / 1024)} KiB`,
  );
console.log(`signed attestation, ${signers} signers, ${runs} runs each (after 5 warm-up)`);
line('render only', render);
line('render + PAdES B-B', signedBb);
line('render + PAdES B-T + doc time-stamp', signedBt);
console.log(
  `  signing adds ${(signedBb.cpu - render.cpu).toFixed(1)} ms CPU (B-B), ${(signedBt.cpu - render.cpu).toFixed(1)} ms (B-T)`,
);
console.log(
  `  load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
