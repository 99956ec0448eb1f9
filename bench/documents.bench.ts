/**
 * Memory of uploads: `--uploads` (default 20) concurrent uploads of `--mb` MB (default 25) each, over real
 * sockets, into the store (PGlite in memory by default; `--database-url` for PostgreSQL). The process RSS is
 * sampled every 50 ms; printed: before, peak, the peak's growth per upload in flight, and the throughput.
 * The bytes are generated as they are sent (AES-CTR of zeros), so the client holds no file either.
 * `--objects s3` puts the sealed chunks in an S3-compatible store instead of the store's tables: s3rver
 * (a real S3 HTTP server) started in a child process, so its memory is not counted, or `--object-store-url`.
 *   node --import tsx bench/documents.bench.ts [--uploads 20] [--mb 25] [--database-url postgres://…]
 *     [--objects store|s3] [--object-store-url http://KEY:SECRET@host:port/bucket]
 */
import { createCipheriv, createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { parseObjectStoreUrl, s3Client } from '../src/adapters/objects/s3-client.js';
import { s3DocumentObjects } from '../src/adapters/objects/s3-document-objects.js';
import { openStore } from '../src/adapters/store/create-store.js';
import { storeDocumentObjects } from '../src/adapters/store/document.repository.js';
import { createOwner } from '../test/signature-requests/fixture.js';
import { testApp, testConfig, testDeps } from '../test/support/fixtures.js';

const { values: args } = parseArgs({
  options: {
    uploads: { type: 'string', default: '20' },
    mb: { type: 'string', default: '25' },
    'database-url': { type: 'string' },
    objects: { type: 'string', default: 'store' },
    'object-store-url': { type: 'string' },
  },
});
const uploads = Number(args.uploads);
const size = Number(args.mb) * 1024 * 1024;
const PIECE = 64 * 1024;

/** The `n`-th file: AES-256-CTR keystream under key n, produced piece by piece. */
function* fileOf(n: number): Generator<Buffer> {
  const cipher = createCipheriv('aes-256-ctr', Buffer.alloc(32, n), Buffer.alloc(16));
  const zeros = Buffer.alloc(PIECE);
  for (let sent = 0; sent < size; sent += PIECE) yield cipher.update(zeros.subarray(0, Math.min(PIECE, size - sent)));
}

const sha256Of = (n: number) => {
  const h = createHash('sha256');
  for (const piece of fileOf(n)) h.update(piece);
  return h.digest('hex');
};

function send(port: number, path: string, auth: string, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: auth, 'content-type': 'application/pdf', 'content-length': String(size) };
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    const pieces = fileOf(n);
    const pump = () => {
      for (let next = pieces.next(); !next.done; next = pieces.next())
        if (!req.write(next.value)) return void req.once('drain', pump);
      req.end();
    };
    pump();
  });
}

// The embedded store on disk, as the default run keeps it (in memory, it would hold every byte uploaded).
const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-documents-bench-'));
const opened = await openStore({ databaseUrl: args['database-url'], embeddedDir: dir, now: Date.now });
/** s3rver in a child process; resolves its OBJECT_STORE_URL and a function stopping it. */
async function childS3(): Promise<{ url: string; stop: () => void }> {
  const code = `const { startS3 } = await import('./test/support/s3-server.ts'); const s = await startS3('bench');
    console.log(s.url); process.on('SIGTERM', async () => { await s.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (c) => reject(new Error(`s3rver exited (${c})`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const s3 =
  args.objects === 's3'
    ? args['object-store-url']
      ? { url: args['object-store-url'], stop: () => undefined }
      : await childS3()
    : null;
const loc = s3 ? parseObjectStoreUrl(s3.url) : null;
const objects = loc ? s3DocumentObjects(s3Client(loc), loc.prefix) : storeDocumentObjects(opened.db);
const documents = { objects, retentionMs: 86_400_000 };
const deps = testDeps(opened.store, { documents });
const app = await testApp(opened.store, { deps, config: testConfig({ DOCUMENT_MAX_BYTES: String(size) }) });
const { auth } = await createOwner(deps);
const ids: string[] = [];
for (let n = 0; n < uploads; n++) {
  const payload = { name: `file ${n}`, hashToSign: sha256Of(n), state: 'DRAFT' };
  ids.push((await app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: auth, payload })).json().id);
}
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
const statuses = await Promise.all(
  ids.map((id, n) => send(port, `/v1/signatureRequest/${id}/file`, auth.authorization, n)),
);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const ok = statuses.filter((s) => s === 200).length;
console.log(
  `documents: ${uploads} concurrent uploads of ${args.mb} MB into ${loc ? `an S3-compatible store (${s3?.url.includes('S3RVER') ? 's3rver' : loc.endpoint}), references in the ${opened.db.kind} store` : `the ${opened.db.kind} store`}: ${ok}/${uploads} answered 200 ` +
    `in ${seconds.toFixed(1)} s (${((uploads * size) / 1024 / 1024 / seconds).toFixed(0)} MB/s)`,
);
console.log(
  `  RSS before ${mb(before)} MB, peak ${mb(peak)} MB: +${mb(peak - before)} MB for ${mb(uploads * size)} MB uploaded ` +
    `(${mb((peak - before) / uploads)} MB per upload in flight); load average ${os.loadavg()[0]!.toFixed(1)}`,
);
await app.close();
await opened.close();
s3?.stop();
rmSync(dir, { recursive: true, force: true });
if (ok !== uploads) process.exit(1);
