/**
 * How the requester of a signature request is named to the others (signers, watchers, the sharing link, the
 * attestation): never by an empty string, never by an address nobody outside this server can write to.
 */

/**
 * An address of the reserved `localhost` domain or one under it (RFC 6761), such as the default run's own
 * account `local@proofseal.localhost`: it reaches no one, so it is never shown as a person's contact.
 */
export function isInternalAddress(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domain === 'localhost' || domain.endsWith('.localhost');
}

export interface RequesterSource {
  /** The request's `requesterName` / `requesterEmail` vars when given as non-blank strings. */
  readonly varName: string | null;
  readonly varEmail: string | null;
  /** The owner account (null when it is gone). */
  readonly account: { readonly firstName: string; readonly lastName: string; readonly email: string } | null;
  /** The name the service goes by (`SERVICE_NAME`, or the request's `serviceName` var): the last resort. */
  readonly serviceName: string;
}

/** The requester's contact as shown to others: the var, else the account's address unless it is internal. */
export function requesterEmail(source: RequesterSource): string | null {
  if (source.varEmail !== null) return source.varEmail;
  const email = source.account?.email ?? null;
  return email === null || isInternalAddress(email) ? null : email;
}

/**
 * The requester's name as shown to others: the `requesterName` var, else the account's full name, else its
 * contact address, else the service's name (an unnamed account of the default run).
 */
export function requesterName(source: RequesterSource): string {
  if (source.varName !== null) return source.varName;
  const fullName = source.account ? `${source.account.firstName} ${source.account.lastName}`.trim() : '';
  return fullName || requesterEmail(source) || source.serviceName;
}

/** A string var as a requester field: null when absent, not a string or blank. */
export function requesterVar(vars: Readonly<Record<string, unknown>> | null, name: string): string | null {
  const value = vars?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
