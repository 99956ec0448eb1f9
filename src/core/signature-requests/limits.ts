/** Limits of a signature request (documented in docs/signature-requests.md). */
import { fail } from '../errors.js';
import { formatIdentity } from '../identity/x500-name.js';

export const SIGNATURE_REQUEST_LIMITS = {
  maxSignees: 50,
  maxWatchers: 50,
  /** Size of `vars` (request, one signer or one watcher) as compact JSON, UTF-8 bytes. */
  maxVarsBytes: 64 * 1024,
  /** Length of one variable's value, UTF-8 bytes. */
  maxVarValueBytes: 16 * 1024,
} as const;

export type Vars = Readonly<Record<string, string | boolean>>;

/**
 * Checks the size of a `vars` object (its shape is checked by the HTTP schema).
 * @throws DomainError VARS_TOO_LARGE when the whole, or one value, is over its limit
 */
export function assertVarsSize(vars: Vars | undefined, label: string): void {
  if (vars === undefined) return;
  const { maxVarsBytes, maxVarValueBytes } = SIGNATURE_REQUEST_LIMITS;
  for (const [k, v] of Object.entries(vars)) {
    if (typeof v === 'string' && Buffer.byteLength(v, 'utf8') > maxVarValueBytes)
      fail('VARS_TOO_LARGE', `"${label}.${k}" is over ${maxVarValueBytes} bytes`);
  }
  if (Buffer.byteLength(JSON.stringify(vars), 'utf8') > maxVarsBytes)
    fail('VARS_TOO_LARGE', `"${label}" is over ${maxVarsBytes} bytes of JSON`);
}

/**
 * Checks the number of signers and watchers and that no e-mail appears twice among the signers.
 * @throws DomainError TOO_MANY_SIGNEES, TOO_MANY_WATCHERS, DUPLICATE_SIGNEE
 */
export function assertPeople(signerEmails: readonly (string | undefined)[], watcherCount: number): void {
  if (signerEmails.length > SIGNATURE_REQUEST_LIMITS.maxSignees)
    fail('TOO_MANY_SIGNEES', `at most ${SIGNATURE_REQUEST_LIMITS.maxSignees} signers, got ${signerEmails.length}`);
  if (watcherCount > SIGNATURE_REQUEST_LIMITS.maxWatchers)
    fail('TOO_MANY_WATCHERS', `at most ${SIGNATURE_REQUEST_LIMITS.maxWatchers} watchers, got ${watcherCount}`);
  const seen = new Set<string>();
  for (const email of signerEmails) {
    if (email === undefined) continue;
    const key = email.toLowerCase();
    if (seen.has(key)) fail('DUPLICATE_SIGNEE', `the signer ${email} is listed twice`);
    seen.add(key);
  }
}

/**
 * The identity a delegated signature binds to the signer: `CN=<name>,EMAILADDRESS=<email>` (X.500, escaped). The
 * service passes the e-mail committed (`sha256:<SHA-256(salt ‖ e-mail)>`, committedEmail), so that a receipt
 * anyone may hold names the signer and proves the e-mail only to whom the owner gives the opening.
 */
export function signerIdentity(commonName: string, email: string | null): string {
  return formatIdentity({ commonName, ...(email !== null && { emailAddress: email }) }, 'ALL');
}
