/**
 * Throwaway certificates made by openssl in a folder, for the tests' authorities (the RFC 3161 TSA of
 * openssl-tsa.ts, the operator CA whose CRL goes into a PDF's DSS): a self-signed CA and the certificates it
 * issues, all P-256 keys valid two days.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** A new P-256 key, unencrypted (the `openssl req` options). */
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** Runs `openssl args` in `dir`; what it printed on stdout. */
export function openssl(dir: string, args: string[]): string {
  return execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' }).toString();
}

/**
 * A self-signed CA in `dir`: `<name>.key` and `<name>.pem`, basicConstraints CA:TRUE and the critical key usage
 * given (`keyCertSign`, or `keyCertSign,cRLSign` for a CA that signs CRLs).
 */
export function makeCa(dir: string, o: { name: string; subject: string; keyUsage: string }): void {
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    `${o.name}.key`,
    '-out',
    `${o.name}.pem`,
    '-subj',
    o.subject,
    '-days',
    '2',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    `keyUsage=critical,${o.keyUsage}`,
  ]);
}

/**
 * A key and a certificate the CA `ca` (made by makeCa) issues in `dir`: `<name>.key`, `<name>.csr`,
 * `<name>-ext.cnf` (the `extensions`, one per line) and `<name>.pem`.
 */
export function issueCertificate(
  dir: string,
  o: { name: string; subject: string; ca: string; extensions: readonly string[] },
): void {
  openssl(dir, ['req', ...EC_KEY, '-keyout', `${o.name}.key`, '-out', `${o.name}.csr`, '-subj', o.subject]);
  writeFileSync(path.join(dir, `${o.name}-ext.cnf`), `${o.extensions.join('\n')}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${o.name}.csr`,
    '-CA',
    `${o.ca}.pem`,
    '-CAkey',
    `${o.ca}.key`,
    '-CAcreateserial',
    '-out',
    `${o.name}.pem`,
    '-days',
    '2',
    '-extfile',
    `${o.name}-ext.cnf`,
  ]);
}
