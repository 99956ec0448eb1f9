/**
 * The sealed audit trail commits to personal data instead of publishing it (format 2). Each personal value
 * of an event (an e-mail, an IP address, a user agent, a recipient, a free-text message) is replaced by
 * `SHA-256(salt ‖ UTF-8(value))` in hex, with a fresh 16-byte salt per value. The sealed JSON, its hash and
 * its anchor then prove the names, dates and kinds of events to anyone, and a value only to whom its
 * opening (salt and value) is given: the owner holds every opening, a signer those of their own values.
 */
import { sha256Hex } from '../hash/sha256.js';
import type { AuditEventType, AuditTrail, AuditTrailEvent } from './audit-trail.js';

/** The fields of a format-2 event that hold a commitment (64 hex digits), never the value. */
export const COMMITTED_FIELDS = ['actorEmail', 'ip', 'userAgent', 'recipient', 'message'] as const;
export type CommittedField = (typeof COMMITTED_FIELDS)[number];

/** The bytes of a salt (hex in openings). */
export const SALT_BYTES = 16;

/** What anyone may read of an event: no personal value. */
export interface PublicEventPart {
  readonly date: number;
  readonly type: AuditEventType;
  /** A signer's name or `platform`; absent when the actor is the owner's account (see `actorEmail`). */
  readonly actor?: string;
  readonly auditTrailId?: string;
  /** A comment that names no one (a deadline, the kind of a mail). */
  readonly comment?: string;
}

/** One personal value of an event, with the signer it belongs to (absent: the owner's). */
export interface PersonalValue {
  readonly field: CommittedField;
  readonly value: string;
  readonly of?: string;
}

/** An event split into its public part and its personal values. */
export interface SplitEvent {
  readonly public: PublicEventPart;
  readonly personal: readonly PersonalValue[];
}

/** An event of a format-2 trail: the public part and a commitment per personal value. */
export type CommittedAuditEvent = PublicEventPart & Partial<Record<CommittedField, string>>;

/** The sealed audit trail, format 2. */
export interface CommittedAuditTrail {
  readonly format: 2;
  readonly auditContext: AuditTrail['auditContext'];
  readonly auditEvents: CommittedAuditEvent[];
}

/** A sealed trail as kept: format 2, or the plain trail sealed before it (format 1, no `format` member). */
export type SealedAuditTrail = AuditTrail | CommittedAuditTrail;

/** The opening of one commitment: `auditEvents[event][field]` = SHA-256(salt ‖ value). */
export interface AuditOpening {
  readonly event: number;
  readonly field: CommittedField;
  /** The salt, hex. */
  readonly salt: string;
  readonly value: string;
  /** The auditTrailId of the signer whose value it is; absent for the owner's. */
  readonly auditTrailId?: string;
}

export function isCommittedTrail(trail: SealedAuditTrail): trail is CommittedAuditTrail {
  return (trail as Partial<CommittedAuditTrail>).format === 2;
}

/** SHA-256 of the salt's bytes followed by the value's UTF-8 bytes, hex. */
export function commitmentOf(saltHex: string, value: string): string {
  const salt = Buffer.from(saltHex, 'hex');
  return sha256Hex(Buffer.concat([salt, Buffer.from(value, 'utf8')]));
}

/** The e-mail of a delegated signature's identity, committed: `sha256:` and the commitment (EMAILADDRESS=…). */
export function committedEmail(saltHex: string, email: string): string {
  return `sha256:${commitmentOf(saltHex, email)}`;
}

/** Commits every personal value with a fresh salt: the trail to seal and the openings to keep. */
export function commitTrail(
  context: AuditTrail['auditContext'],
  events: readonly SplitEvent[],
  salt: () => Uint8Array,
): { trail: CommittedAuditTrail; openings: AuditOpening[] } {
  const openings: AuditOpening[] = [];
  const auditEvents = events.map((e, event): CommittedAuditEvent => {
    const committed: Partial<Record<CommittedField, string>> = {};
    for (const p of e.personal) {
      const saltHex = Buffer.from(salt()).toString('hex');
      committed[p.field] = commitmentOf(saltHex, p.value);
      openings.push({
        event,
        field: p.field,
        salt: saltHex,
        value: p.value,
        ...(p.of !== undefined && { auditTrailId: p.of }),
      });
    }
    return { ...e.public, ...committed };
  });
  return { trail: { format: 2, auditContext: context, auditEvents }, openings };
}

const PLAIN_FIELD: Record<CommittedField, keyof AuditTrailEvent | null> = {
  actorEmail: null,
  ip: 'ip',
  userAgent: 'userAgent',
  recipient: null,
  message: 'comment',
};

/**
 * The live trail as one reader may see it (format 1's shape): the public parts, and the personal values of
 * `reader` (a signer's auditTrailId) only. A signer's own e-mail joins their name as `Name <email>`.
 */
export function redactTrail(
  context: AuditTrail['auditContext'],
  events: readonly SplitEvent[],
  reader: string,
): AuditTrail {
  const auditEvents = events.map((e): AuditTrailEvent => {
    const own = e.personal.filter((p) => p.of === reader);
    const out: Record<string, unknown> = { ...e.public };
    for (const p of own) {
      const plain = PLAIN_FIELD[p.field];
      if (plain !== null) out[plain] = p.value;
      else if (p.field === 'actorEmail') out.actor = `${e.public.actor ?? ''} <${p.value}>`;
      else out.comment = `${e.public.comment ?? ''} to ${p.value}`;
    }
    return out as unknown as AuditTrailEvent;
  });
  return { auditContext: context, auditEvents };
}
