/**
 * Strict shape check of a Chainpoint v2 receipt received from outside (POST /v1/receipt/verify).
 * Malformed → DomainError INVALID_RECEIPT (a 400) with a message naming the field. Unknown fields are
 * refused. Whether the proof, the signature or the transaction hold is the verifier's business.
 */
import { DomainError } from '../errors.js';
import { assertHash } from '../hash/hash-check.js';
import type { ProofStep } from '../merkle/proof.js';
import {
  BTC_OP_RETURN,
  CHAINPOINT_CONTEXT,
  CHAINPOINT_TYPE,
  orderedSignature,
  type ChainpointReceipt,
  type ReceiptAnchor,
  type ReceiptSignature,
} from './receipt.js';

/** A tree of 2^64 leaves would need 64 steps: anything longer is not a receipt. */
export const MAX_PROOF_STEPS = 64;
export const MAX_ANCHORS = 16;
/** Bound on free-text signature fields (pubKey, signature, identity fields). */
export const MAX_TEXT_LENGTH = 2048;

const RECEIPT_KEYS = ['@context', 'type', 'targetHash', 'merkleRoot', 'proof', 'anchors', 'signature'];
const SIGNATURE_KEYS = ['signedHash', 'pubKey', 'signature', 'identityURL', 'signedIdentity', 'signedIssuerDomain'];

function invalid(message: string): never {
  throw new DomainError('INVALID_RECEIPT', message);
}

function asObject(value: unknown, label: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalid(`"${label}" expected an object, got ${kindOf(value)}`);
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (unknown !== undefined) invalid(`"${label}" has an unknown field "${unknown}"`);
  return value as Record<string, unknown>;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

function hashField(value: unknown, label: string): string {
  try {
    return assertHash(value, label);
  } catch (e) {
    return invalid((e as Error).message);
  }
}

function textField(value: unknown, label: string): string {
  if (typeof value !== 'string' || value.length === 0)
    invalid(`"${label}" expected a non-empty string, got ${kindOf(value)}`);
  if (value.length > MAX_TEXT_LENGTH)
    invalid(`"${label}" expected at most ${MAX_TEXT_LENGTH} chars, got ${value.length}`);
  return value;
}

function arrayField(value: unknown, label: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) invalid(`"${label}" expected an array, got ${kindOf(value)}`);
  if (value.length < min || value.length > max)
    invalid(`"${label}" expected ${min}..${max} items, got ${value.length}`);
  return value;
}

function proofStep(value: unknown, i: number): ProofStep {
  const step = asObject(value, `proof[${i}]`, ['left', 'right']);
  const keys = Object.keys(step);
  if (keys.length !== 1) invalid(`"proof[${i}]" expected exactly one of "left" or "right", got ${keys.length} fields`);
  return keys[0] === 'left'
    ? { left: hashField(step.left, `proof[${i}].left`) }
    : { right: hashField(step.right, `proof[${i}].right`) };
}

function anchor(value: unknown, i: number): ReceiptAnchor {
  const a = asObject(value, `anchors[${i}]`, ['type', 'sourceId']);
  if (a.type !== BTC_OP_RETURN)
    invalid(`"anchors[${i}].type" expected "${BTC_OP_RETURN}", got ${JSON.stringify(a.type) ?? 'nothing'}`);
  return { type: BTC_OP_RETURN, sourceId: hashField(a.sourceId, `anchors[${i}].sourceId`) };
}

function signatureObject(value: unknown): ReceiptSignature {
  const s = asObject(value, 'signature', SIGNATURE_KEYS);
  const out: ReceiptSignature = {
    signedHash: hashField(s.signedHash, 'signature.signedHash'),
    pubKey: textField(s.pubKey, 'signature.pubKey'),
    signature: textField(s.signature, 'signature.signature'),
  };
  for (const key of ['identityURL', 'signedIdentity', 'signedIssuerDomain'] as const) {
    if (s[key] !== undefined) out[key] = textField(s[key], `signature.${key}`);
  }
  return orderedSignature(out);
}

/**
 * Validate a receipt's shape and return it typed (a fresh object in the canonical field order).
 * @param input - parsed JSON
 * @throws DomainError INVALID_RECEIPT with a message naming the first bad field
 */
export function validateReceipt(input: unknown): ChainpointReceipt {
  const r = asObject(input, 'receipt', RECEIPT_KEYS);
  if (r['@context'] !== undefined && r['@context'] !== CHAINPOINT_CONTEXT)
    invalid(`"@context" expected "${CHAINPOINT_CONTEXT}"`);
  if (r.type !== CHAINPOINT_TYPE)
    invalid(`"type" expected "${CHAINPOINT_TYPE}", got ${JSON.stringify(r.type) ?? 'nothing'}`);
  const receipt: ChainpointReceipt = {
    '@context': CHAINPOINT_CONTEXT,
    type: CHAINPOINT_TYPE,
    targetHash: hashField(r.targetHash, 'targetHash'),
    merkleRoot: hashField(r.merkleRoot, 'merkleRoot'),
    proof: arrayField(r.proof, 'proof', 0, MAX_PROOF_STEPS).map(proofStep),
    anchors: arrayField(r.anchors, 'anchors', 1, MAX_ANCHORS).map(anchor),
  };
  return r.signature === undefined ? receipt : { ...receipt, signature: signatureObject(r.signature) };
}
