#!/usr/bin/env node
// `npm run bench`: every benchmark in turn, each in its own process, with its default parameters.
// Each prints its own figures; none fails on a timing. Run one alone for other parameters (see its header).
import { spawnSync } from 'node:child_process';

const benches = [
  ['--expose-gc', '--import', 'tsx', 'bench/merkle.bench.ts'],
  ['--expose-gc', '--import', 'tsx', 'bench/batch.bench.ts'],
  ['--import', 'tsx', 'bench/anchors.bench.ts'],
  // Issue 25 goal 2: CPU per anchor of everything `proofseal start` runs, in recoveries.
  ['--import', 'tsx', 'bench/ingest.bench.ts'],
  // Issue 36: the transparency log's sequencer alone, CPU per entry on both stores.
  ['--import', 'tsx', 'bench/tlog-sequencer.bench.ts'],
  ['--import', 'tsx', 'bench/receipts.bench.ts'],
  // Issue 25 goal 1: receipts of random anchors of all stored, with and without the static receipts' redirect.
  ['--import', 'tsx', 'bench/receipts.bench.ts', '--mode', 'random', '--anchors', '100000,1000000', '--redirect'],
  ['--import', 'tsx', 'bench/scaling.bench.ts'],
  // Issue 35: receipts with the API reading from a streaming replica, ingest with a replica attached (needs root or postgres, PgBouncer).
  ['--import', 'tsx', 'bench/replicas.bench.ts'],
  ['--import', 'tsx', 'bench/footprint.bench.ts'],
  ['--import', 'tsx', 'bench/chain-memory.bench.ts'],
  ['--import', 'tsx', 'bench/signature-requests.bench.ts'],
  // Issue 25 goal 3: signers arriving at fixed rates (open loop), and creating requests of 2, 10 and 50 signers.
  [
    '--import',
    'tsx',
    'bench/signature-requests.bench.ts',
    '--closed',
    'false',
    '--pgbench',
    'false',
    '--open-rates',
    '250,500,750,1000,1500,2000',
    '--create',
    '2,10,50',
    // The log's cost is measured by the closed loop above (`--tlog both`, its default).
    '--tlog',
    'off',
  ],
  // Issue 25 goal 4: PostgreSQL's own insert, commit and point-read ceilings on this box (docs/scaling.md).
  ['--import', 'tsx', 'bench/pg-ceiling.bench.ts'],
  // Issue 25 goal 2: the store side of an anchor insert alone, by group size, on both stores.
  ['--import', 'tsx', 'bench/anchor-insert.bench.ts'],
  ['--import', 'tsx', 'bench/mail.bench.ts'],
  ['--import', 'tsx', 'bench/mail-queue.bench.ts'],
  ['--import', 'tsx', 'bench/templates.bench.ts'],
  ['--import', 'tsx', 'bench/attestation.bench.ts'],
  ['--expose-gc', '--import', 'tsx', 'bench/documents.bench.ts'],
  ['--import', 'tsx', 'bench/pades.bench.ts'],
  ['--import', 'tsx', 'bench/signed-copy.bench.ts'],
  // Issue 32: users' PDFs in worker threads (the built service in dist/, which `npm install` builds).
  ['--import', 'tsx', 'bench/pdf-worker.bench.mjs'],
  // Issue 33: the CPU of a client command's start (`request show`, `--help`) beside a bare `node -e 0`.
  ['--import', 'tsx', 'bench/cli-start.bench.ts'],
];
for (const args of benches) {
  console.log(`\n== ${args.slice(args.findIndex((a) => a.startsWith('bench/'))).join(' ')}`);
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
