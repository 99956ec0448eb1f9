/**
 * The limits on the mails people other than the platform make the service send: a manual reminder, a
 * signer's feedback, a signer's events (a decline mails the requester). Counted on the request's audit events, read under the request's row lock, so every
 * process agrees and two calls at once cannot both pass; the windows slide (no burst at an hour's edge).
 */
import { SIGNER_EVENT_TYPES } from '../../core/signature-requests/audit-trail.js';
import type { AuditEvent } from './signature-request.port.js';

export const HOUR_MS = 3_600_000;
/** A signer is reminded (by the owner or the platform) at most once an hour. */
export const REMIND_EVERY_MS = HOUR_MS;
/** Feedback from one signer of a request per hour. */
export const FEEDBACK_PER_SIGNER_PER_HOUR = 3;
/** Feedback from all the signers of a request together per hour (the requester's inbox). */
export const FEEDBACK_PER_REQUEST_PER_HOUR = 10;

/** Milliseconds before this signer may be reminded again; 0 when now. */
export function remindWaitMs(events: readonly AuditEvent[], signerId: string, now: number): number {
  let last = -Infinity;
  for (const e of events) if (e.type === 'REMINDED' && e.signerId === signerId && e.date > last) last = e.date;
  return Math.max(0, last + REMIND_EVERY_MS - now);
}

/** Milliseconds before this signer may give feedback again (either limit); 0 when now. */
export function feedbackWaitMs(events: readonly AuditEvent[], signerId: string, now: number): number {
  const recent = events.filter((e) => e.type === 'FEEDBACK' && e.date > now - HOUR_MS).map((e) => e.date);
  const mine = events
    .filter((e) => e.type === 'FEEDBACK' && e.signerId === signerId && e.date > now - HOUR_MS)
    .map((e) => e.date);
  return Math.max(
    waitUnderLimit(mine, FEEDBACK_PER_SIGNER_PER_HOUR, now),
    waitUnderLimit(recent, FEEDBACK_PER_REQUEST_PER_HOUR, now),
  );
}

/** Signer events (`POST …/event`) from one signer of a request per hour. */
export const SIGNER_EVENTS_PER_SIGNER_PER_HOUR = 10;
/** Signer events from all the signers of a request together per hour (the trail's growth). */
export const SIGNER_EVENTS_PER_REQUEST_PER_HOUR = 60;
const SIGNER_EVENTS: ReadonlySet<string> = new Set(SIGNER_EVENT_TYPES);

/** Milliseconds before this signer may report a signer event again (either limit); 0 when now. */
export function signerEventWaitMs(events: readonly AuditEvent[], signerId: string, now: number): number {
  const recent = events.filter((e) => SIGNER_EVENTS.has(e.type) && e.date > now - HOUR_MS);
  return Math.max(
    waitUnderLimit(
      recent.filter((e) => e.signerId === signerId).map((e) => e.date),
      SIGNER_EVENTS_PER_SIGNER_PER_HOUR,
      now,
    ),
    waitUnderLimit(
      recent.map((e) => e.date),
      SIGNER_EVENTS_PER_REQUEST_PER_HOUR,
      now,
    ),
  );
}

/** With `dates` in the last hour, the wait until fewer than `max` are left in it. */
function waitUnderLimit(dates: number[], max: number, now: number): number {
  if (dates.length < max) return 0;
  const sorted = [...dates].sort((x, y) => y - x);
  return Math.max(0, sorted[max - 1]! + HOUR_MS - now);
}

/** A wait in milliseconds as the whole seconds of `Retry-After` (at least 1). */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
