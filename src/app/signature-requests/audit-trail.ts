/** Reading a request's audit trail, and sealing it (hash signed by the platform key, anchored). */
import { DomainError, fail } from '../../core/errors.js';
import { sha256Utf8Hex } from '../../core/hash/sha256.js';
import {
  commitTrail,
  redactTrail,
  SALT_BYTES,
  type PersonalValue,
  type SplitEvent,
} from '../../core/signature-requests/audit-commitment.js';
import {
  auditTrailCanonicalJson,
  type AuditTrail,
  type AuditTrailEvent,
} from '../../core/signature-requests/audit-trail.js';
import { SEALING_STATES } from '../../core/signature-requests/states.js';
import { createAnchor } from '../anchoring/create-anchor.js';
import type { AppDeps } from '../shared/deps.js';
import type { RequestMailDeps } from './request-mails.js';
import { PLATFORM_ACTOR, signerActor } from './audit.js';
import type { AuditEvent, SignatureRequest } from './signature-request.port.js';

/** The audit trail document of a request from its stored events: every value in plain (the owner's form). */
export function auditTrailOf(request: SignatureRequest, events: readonly AuditEvent[]): AuditTrail {
  const trailIdOf = new Map(request.signers.map((s) => [s.id, s.auditTrailId]));
  const auditEvents = events.map((e): AuditTrailEvent => {
    const trailId = e.signerId === null ? undefined : trailIdOf.get(e.signerId);
    return {
      date: e.date,
      type: e.type,
      ...(e.actor !== null && { actor: e.actor }),
      ...(trailId !== undefined && { auditTrailId: trailId }),
      ...(e.comment !== null && { comment: e.comment }),
      ...(e.ip !== null && { ip: e.ip }),
      ...(e.userAgent !== null && { userAgent: e.userAgent }),
    };
  });
  return { auditContext: { id: request.id, name: request.name, hashToSign: request.hashToSign }, auditEvents };
}

/** Who reads a trail: the owner, or one signer (by auditTrailId). */
export type TrailReader = { readonly kind: 'owner' } | { readonly kind: 'signer'; readonly auditTrailId: string };

/**
 * The live audit trail of a request (the sealed one, once sealed, is in the proof bundle): the owner reads
 * it whole; a signer reads names, dates and kinds of every event, and the personal values of their own.
 */
export async function readAuditTrail(
  deps: Pick<AppDeps, 'store'>,
  request: SignatureRequest,
  reader: TrailReader = { kind: 'owner' },
): Promise<AuditTrail> {
  const events = await deps.store.signatureRequests.events(request.id);
  if (reader.kind === 'owner') return auditTrailOf(request, events);
  return redactTrail(contextOf(request), splitEvents(request, events), reader.auditTrailId);
}

function contextOf(request: SignatureRequest): AuditTrail['auditContext'] {
  return { id: request.id, name: request.name, hashToSign: request.hashToSign };
}

/** A mail's comment as deliver-email writes it: `<kind> to <address>`. */
const MAIL_COMMENT = /^(\S+) to (.+)$/s;
/** Event types whose comment names no one. */
const PUBLIC_COMMENTS: ReadonlySet<string> = new Set(['DEADLINE_UPDATED']);

/**
 * Each event split into what anyone may read (names, dates, kinds, the auditTrailId) and its personal values:
 * the actor's e-mail, IP and user agent, a mail's recipient, any free text; each value marked with the
 * signer it belongs to (none: the owner's account, or a watcher's address).
 */
export function splitEvents(request: SignatureRequest, events: readonly AuditEvent[]): SplitEvent[] {
  const byId = new Map(request.signers.map((s) => [s.id, s]));
  const byEmail = new Map(request.signers.flatMap((s) => (s.email === null ? [] : [[s.email, s]])));
  return events.map((e) => {
    const concerned = e.signerId === null ? undefined : byId.get(e.signerId);
    // Every signer's own event names that signer (recordEvent's `signer`); any other actor is the account's.
    const signer = concerned !== undefined && e.actor === signerActor(concerned) ? concerned : undefined;
    const of = signer?.auditTrailId;
    const personal: PersonalValue[] = [];
    const add = (field: PersonalValue['field'], value: string | null | undefined, owner = of): void => {
      if (value !== null && value !== undefined)
        personal.push({ field, value, ...(owner !== undefined && { of: owner }) });
    };
    let actor: string | undefined;
    if (e.actor === PLATFORM_ACTOR) actor = PLATFORM_ACTOR;
    else if (signer !== undefined) {
      actor = signer.commonName;
      add('actorEmail', signer.email);
    } else add('actorEmail', e.actor);
    add('ip', e.ip);
    add('userAgent', e.userAgent);
    let comment: string | undefined;
    const mail = e.type === 'EMAIL_SENT' ? MAIL_COMMENT.exec(e.comment ?? '') : null;
    if (mail) {
      comment = mail[1];
      add('recipient', mail[2], byEmail.get(mail[2]!)?.auditTrailId);
    } else if (e.comment !== null && PUBLIC_COMMENTS.has(e.type)) comment = e.comment;
    else add('message', e.comment);
    const pub = {
      date: e.date,
      type: e.type,
      ...(actor !== undefined && { actor }),
      ...(concerned !== undefined && { auditTrailId: concerned.auditTrailId }),
      ...(comment !== undefined && { comment }),
    };
    return { public: pub, personal };
  });
}

export type SealOutcome = 'sealed' | 'skipped';

/**
 * Seals the audit trail of a COMPLETED or CLOSED request in format 2: every personal value is replaced by
 * a salted commitment (core/signature-requests/audit-commitment.ts), the canonical JSON is hashed (SHA-256),
 * the platform key signs the hash, and the signature becomes an anchor (`auditTrailAnchorId`). The sealed
 * JSON is kept as sealed with the openings (salts from the Random port), and the attestation mails are
 * queued with the seal. Idempotent: a sealed (or not sealable) request is skipped.
 * @throws DomainError NOT_READY (no platform key), KEY_REVOKED / KEY_EXPIRED
 */
export async function sealAuditTrail(deps: SealDeps, input: { requestId: string }): Promise<SealOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sealOnce(deps, input);
    } catch (err) {
      if (attempt >= SEAL_TRIES || !(err instanceof DomainError && err.code === 'CONFLICT')) throw err;
    }
  }
}

export type SealDeps = Pick<AppDeps, 'store' | 'platformSigner' | 'random'> & RequestMailDeps;
/** A trail grows while it is sealed when a mail of the request is delivered meanwhile (EMAIL_SENT): try again. */
const SEAL_TRIES = 3;

async function sealOnce(deps: SealDeps, input: { requestId: string }): Promise<SealOutcome> {
  const platform = deps.platformSigner ?? fail('NOT_READY', 'this server has no platform key to seal with');
  const request = await deps.store.signatureRequests.findById(input.requestId);
  if (!request || !SEALING_STATES.has(request.state) || request.auditTrailAnchorId !== null) return 'skipped';
  // Signed outside the transaction (the signer must not wait on the request's lock), checked again inside it.
  const events = await deps.store.signatureRequests.events(request.id);
  const plain = auditTrailCanonicalJson(auditTrailOf(request, events));
  const { trail, openings } = commitTrail(contextOf(request), splitEvents(request, events), () =>
    deps.random.bytes(SALT_BYTES),
  );
  const canonical = auditTrailCanonicalJson(trail);
  const hash = sha256Utf8Hex(canonical);
  const signed = await platform.signer.sign({ hashToSign: hash, pubKey: platform.pubKey });
  return deps.store.transaction(async (tx) => {
    const locked = await tx.signatureRequests.lockById(request.id);
    if (!locked || locked.auditTrailAnchorId !== null) return 'skipped';
    const now = auditTrailCanonicalJson(auditTrailOf(locked, await tx.signatureRequests.events(request.id)));
    if (now !== plain) fail('CONFLICT', `the audit trail of ${request.id} changed while it was sealed; seal again`);
    const anchor = await createAnchor(
      { ...deps, store: tx },
      {
        accountId: request.accountId,
        name: `Audit trail: ${request.name}`,
        signedHash: hash,
        signature: signed.signature,
        pubKey: signed.pubKey,
        identityURL: signed.identityURL,
        public: request.public,
        metadata: { signatureRequestId: request.id, auditTrail: true },
      },
    );
    await tx.signatureRequests.setSealed(request.id, anchor.id, canonical, deps.clock.now(), JSON.stringify(openings));
    return 'sealed';
  });
}
