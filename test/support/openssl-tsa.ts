/**
 * A real RFC 3161 time-stamping authority for tests and the bench: `openssl ts -reply` behind a node:http
 * listener on 127.0.0.1, with a throwaway CA and TSA certificate made by openssl in a temp dir. Each query
 * is answered by OpenSSL itself (no fixed bytes), so a token has a fresh time, serial and our nonce.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { issueCertificate, makeCa } from './openssl-ca.js';

const run = promisify(execFile);

export interface OpensslTsa {
  /** The TSA's URL on the loopback. */
  readonly url: string;
  /** Files of the temp dir: the CA certificate (trust anchor) and the TSA's own certificate (PEM). */
  readonly caFile: string;
  readonly tsaCertFile: string;
  readonly dir: string;
  /** Queries answered so far. */
  readonly answered: () => number;
  close(): Promise<void>;
}

/** A CA, a TSA certificate it issues (EKU timeStamping, critical) and the `openssl ts` configuration. */
function makeTsaFiles(dir: string): void {
  makeCa(dir, { name: 'ca', subject: '/CN=Test TSA CA', keyUsage: 'keyCertSign' });
  issueCertificate(dir, {
    name: 'tsa',
    subject: '/CN=Test TSA',
    ca: 'ca',
    extensions: [
      'extendedKeyUsage=critical,timeStamping',
      'keyUsage=critical,digitalSignature',
      'basicConstraints=CA:FALSE',
    ],
  });
  writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  writeFileSync(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa_config1',
      '[ tsa_config1 ]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem',
      'certs = $dir/tsa.pem',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.3.6.1.4.1.99999.1',
      'digests = sha256',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
}

export async function startOpensslTsa(): Promise<OpensslTsa> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-tsa-'));
  makeTsaFiles(dir);
  let count = 0;
  // OpenSSL keeps its serial in one file: answer one query at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const answer = async (query: Buffer): Promise<Buffer> => {
    const n = (count += 1);
    const q = path.join(dir, `q${n}.tsq`);
    const r = path.join(dir, `r${n}.tsr`);
    writeFileSync(q, query);
    await run('openssl', ['ts', '-reply', '-config', path.join(dir, 'tsa.cnf'), '-queryfile', q, '-out', r]);
    return readFileSync(r);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = queue.then(() => answer(Buffer.concat(chunks)));
      queue = next.catch(() => undefined);
      next.then(
        (reply) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply),
        () => res.writeHead(400).end('bad query'),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caFile: path.join(dir, 'ca.pem'),
    tsaCertFile: path.join(dir, 'tsa.pem'),
    dir,
    answered: () => count,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
