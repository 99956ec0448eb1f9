/**
 * A real RFC 3161 time-stamping authority for tests and the bench: `openssl ts -reply` behind a node:http
 * listener on 127.0.0.1, with a throwaway CA and TSA certificate made by openssl in a temp dir. Each query
 * is answered by OpenSSL itself (no fixed bytes), so a token has a fresh time, serial and our nonce.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A CA, a TSA certificate it issues (EKU timeStamping, critical) and the `openssl ts` configuration. */
function makeTsaFiles(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=Test TSA CA',
    '-days',
    '2',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(dir, ['req', ...ec, '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Test TSA']);
  writeFileSync(
    path.join(dir, 'tsa-ext.cnf'),
    'extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\nbasicConstraints=CA:FALSE\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '2',
    '-extfile',
    'tsa-ext.cnf',
  ]);
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
