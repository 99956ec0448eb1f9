/**
 * The audit trail of a signature request: a closed set of typed events and its canonical JSON, the
 * exact bytes that are hashed, signed by the platform key and anchored when the request is sealed.
 */

/** The events a signer reports itself (`POST /v1/signatureRequest/{id}/event`, Woleet's names). */
export const SIGNER_EVENT_TYPES = [
  'DATA_VERIFIED',
  'DATA_REVIEWED',
  'TCU_ACCEPTED',
  'TCU_REFUSED',
  'SIGN_ACCEPTED',
  'SIGN_REFUSED',
] as const;
export type SignerEventType = (typeof SIGNER_EVENT_TYPES)[number];

/**
 * Every type of audit event (docs/signature-requests.md, "Signing and the proofs" and "Signer events and
 * declines"): Woleet's, plus UPDATED (a DRAFT changed), PENDING and DRAFTED (the owner's moves to those
 * states), VIEWED (a signer opened the request, first time) and EMAIL_FAILED (a mail of the request could not
 * be rendered: its template passed its budget), and the signer events of Woleet's `POST …/event`
 * (SIGNER_EVENT_TYPES; SIGN_REFUSED is a decline).
 */
export const AUDIT_EVENT_TYPES = [
  'CREATED',
  'UPDATED',
  'ACTIVATED',
  'PENDING',
  'DRAFTED',
  'EMAIL_SENT',
  'EMAIL_FAILED',
  'VIEWED',
  'SIGNEE_AUTH',
  'OTP_SENT',
  'OTP_AUTH',
  'DELEGATE',
  'SIGN',
  'FEEDBACK',
  'REMINDED',
  'DEADLINE_UPDATED',
  'COMPLETED',
  'CLOSED',
  'CANCELED',
  'EXPIRED',
  ...SIGNER_EVENT_TYPES,
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** One event as it appears in the audit trail document. */
export interface AuditTrailEvent {
  readonly date: number;
  readonly type: AuditEventType;
  /** Who: an account e-mail, a signer's `CN <email>`, or `platform`. */
  readonly actor?: string;
  /** The `auditTrailId` of the signer the event concerns. */
  readonly auditTrailId?: string;
  readonly comment?: string;
  readonly ip?: string;
  readonly userAgent?: string;
}

/** The audit trail document (docs/signature-requests.md): context and events, oldest first. */
export interface AuditTrail {
  readonly auditContext: { readonly id: string; readonly name: string; readonly hashToSign: string };
  readonly auditEvents: AuditTrailEvent[];
}

type Json = string | number | boolean | null | readonly Json[] | { readonly [k: string]: Json | undefined };

/**
 * Canonical JSON (RFC 8785 for the values used here: strings, integers, booleans, null, arrays,
 * objects): object keys sorted by UTF-16 code units, no whitespace, undefined members left out.
 * @throws TypeError on a non-finite or non-integer number (never in an audit trail)
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON takes safe integers only, got ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(',')}]`;
  const obj = value as { readonly [k: string]: Json | undefined };
  const members = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k] as Json)}`);
  return `{${members.join(',')}}`;
}

/** The canonical JSON of an audit trail: what is hashed (SHA-256) and anchored. */
export function auditTrailCanonicalJson(trail: AuditTrail): string {
  return canonicalJson(trail as unknown as Json);
}
