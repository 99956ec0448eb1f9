/** Writing audit events: always on the store of the transaction that makes the change they record. */
import type { AuditEventType } from '../../core/signature-requests/audit-trail.js';
import type { Store } from '../shared/store.port.js';
import type { AuditEvent, Signer } from './signature-request.port.js';
import { truncateGraphemes } from '../../core/text/graphemes.js';

/** Where a request came from, when it came over HTTP. */
export interface Origin {
  readonly ip?: string;
  readonly userAgent?: string;
}

/** The actor of the platform's own moves (activation, completion, expiry). */
export const PLATFORM_ACTOR = 'platform';

/** How a signer appears as an actor: `Name <email>` (or the name alone). */
export function signerActor(s: Pick<Signer, 'commonName' | 'email'>): string {
  return s.email === null ? s.commonName : `${s.commonName} <${s.email}>`;
}

/** What a use case says about an audit event. */
export interface EventInput {
  readonly type: AuditEventType;
  readonly date: number;
  readonly actor: string;
  readonly signer?: Pick<Signer, 'id'>;
  readonly origin?: Origin;
  readonly comment?: string;
}

/** Appends one audit event to a request's trail (the caller passes its transaction's store). */
export async function recordEvent(tx: Store, requestId: string, event: EventInput): Promise<void> {
  await tx.signatureRequests.addEvent(requestId, auditEvent(event));
}

/** The stored form of an audit event (the user agent cut to 512 UTF-16 units, on a character boundary). */
export function auditEvent(event: EventInput): AuditEvent {
  return {
    date: event.date,
    type: event.type,
    actor: event.actor,
    signerId: event.signer?.id ?? null,
    ip: event.origin?.ip ?? null,
    userAgent: event.origin?.userAgent === undefined ? null : truncateGraphemes(event.origin.userAgent, 512),
    comment: event.comment ?? null,
  };
}
