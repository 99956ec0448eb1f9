/** Reading a request's audit trail, and sealing it (hash signed by the platform key, anchored). */
import { DomainError, fail } from '../../core/errors.js';
import { sha256Utf8Hex } from '../../core/hash/sha256.js';
import {
  auditTrailCanonicalJson,
  type AuditTrail,
  type AuditTrailEvent,
} from '../../core/signature-requests/audit-trail.js';
import { SEALING_STATES } from '../../core/signature-requests/states.js';
import { createAnchor } from '../anchoring/create-anchor.js';
import type { AppDeps } from '../shared/deps.js';
import type { RequestMailDeps } from './request-mails.js';
import type { AuditEvent, SignatureRequest } from './signature-request.port.js';

/** The audit trail document of a request from its stored events. */
export function auditTrailOf(request: SignatureRequest, events: readonly AuditEvent[]): AuditTrail {
  const trailIdOf = new Map(request.signees.map((s) => [s.id, s.auditTrailId]));
  const auditEvents = events.map((e): AuditTrailEvent => {
    const trailId = e.signeeId === null ? undefined : trailIdOf.get(e.signeeId);
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

/** The live audit trail of a request (the sealed one, once sealed, is in the proof bundle). */
export async function readAuditTrail(deps: Pick<AppDeps, 'store'>, request: SignatureRequest): Promise<AuditTrail> {
  return auditTrailOf(request, await deps.store.signatureRequests.events(request.id));
}

export type SealOutcome = 'sealed' | 'skipped';

/**
 * Seals the audit trail of a COMPLETED or CLOSED request: its canonical JSON is hashed (SHA-256), the
 * platform key signs the hash, and the signature becomes an anchor (`auditTrailAnchorId`). The sealed
 * JSON is kept as sealed, and the attestation mails are queued with the seal. Idempotent: a sealed (or
 * not sealable) request is skipped.
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

type SealDeps = Pick<AppDeps, 'store' | 'platformSigner'> & RequestMailDeps;
/** A trail grows while it is sealed when a mail of the request is delivered meanwhile (EMAIL_SENT): try again. */
const SEAL_TRIES = 3;

async function sealOnce(deps: SealDeps, input: { requestId: string }): Promise<SealOutcome> {
  const platform = deps.platformSigner ?? fail('NOT_READY', 'this server has no platform key to seal with');
  const request = await deps.store.signatureRequests.findById(input.requestId);
  if (!request || !SEALING_STATES.has(request.state) || request.auditTrailAnchorId !== null) return 'skipped';
  // Signed outside the transaction (the signer must not wait on the request's lock), checked again inside it.
  const canonical = auditTrailCanonicalJson(await readAuditTrail(deps, request));
  const hash = sha256Utf8Hex(canonical);
  const signed = await platform.signer.sign({ hashToSign: hash, pubKey: platform.pubKey });
  return deps.store.transaction(async (tx) => {
    const locked = await tx.signatureRequests.lockById(request.id);
    if (!locked || locked.auditTrailAnchorId !== null) return 'skipped';
    const now = auditTrailCanonicalJson(auditTrailOf(locked, await tx.signatureRequests.events(request.id)));
    if (now !== canonical) fail('CONFLICT', `the audit trail of ${request.id} changed while it was sealed; seal again`);
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
    await tx.signatureRequests.setSealed(request.id, anchor.id, canonical, deps.clock.now());
    return 'sealed';
  });
}
