/**
 * The link between a proof bundle's audit-trail receipt and the trail it carries (`auditTrailData`): the hash
 * the receipt proves (its `signature.signedHash`, or `targetHash` for an unsigned receipt) must be the SHA-256
 * of the trail's canonical JSON (RFC 8785); a trail given as text is hashed as it is (UTF-8).
 * Pure: used by `proofseal verify` and exported for the verification page.
 */
import { sha256Hex } from '../hash/sha256.js';
import { canonicalJson } from './audit-trail.js';

export type TrailLinkVerdict =
  | { readonly linked: true; readonly hash: string }
  | {
      readonly linked: false;
      readonly reason: 'NO_TRAIL' | 'NOT_JSON' | 'HASH_DIFFERS';
      /** The trail's hash when it could be computed. */
      readonly hash?: string;
      /** The hash the receipt proves. */
      readonly proven?: string;
      readonly text: string;
    };

interface ReceiptLike {
  readonly targetHash?: unknown;
  readonly signature?: { readonly signedHash?: unknown } | null;
}

/** The hash an audit-trail receipt proves: its signed hash when signed, its target hash otherwise. */
export function provenHash(receipt: ReceiptLike): string | undefined {
  const signed = receipt.signature?.signedHash;
  if (receipt.signature != null) return typeof signed === 'string' ? signed : undefined;
  return typeof receipt.targetHash === 'string' ? receipt.targetHash : undefined;
}

/** The SHA-256 (hex) the receipt of `trail` must prove. @throws TypeError when it is not canonical JSON data */
export function auditTrailDataHash(trail: unknown): string {
  const text = typeof trail === 'string' ? trail : canonicalJson(trail as Parameters<typeof canonicalJson>[0]);
  return sha256Hex(new TextEncoder().encode(text));
}

/** Checks that `receipt` proves exactly `trail`; never throws on hostile input. */
export function checkAuditTrailLink(receipt: ReceiptLike, trail: unknown): TrailLinkVerdict {
  if (trail === undefined || trail === null)
    return {
      linked: false,
      reason: 'NO_TRAIL',
      text: 'the bundle carries no auditTrailData for its audit-trail receipt',
    };
  let hash: string;
  try {
    hash = auditTrailDataHash(trail);
  } catch (err) {
    return { linked: false, reason: 'NOT_JSON', text: `auditTrailData cannot be hashed: ${(err as Error).message}` };
  }
  const proven = provenHash(receipt);
  if (hash === proven) return { linked: true, hash };
  return {
    linked: false,
    reason: 'HASH_DIFFERS',
    hash,
    ...(proven !== undefined && { proven }),
    text: `auditTrailData hashes to ${hash}, the audit-trail receipt proves ${proven ?? 'no hash'}`,
  };
}
