/**
 * The log's entries, byte for byte (docs/transparency-log.md): each is the UTF-8 JSON text of one object
 * whose members come in the order given here, written by JSON.stringify (no spaces, ECMA-262 escapes).
 * An entry carries what a monitor needs and nothing private: a private data anchor's hash is left out (the
 * Bitcoin receipt, held by its owner, is what binds it); a signature anchor's leaf is the SHA-256 of its
 * signature, which nobody can guess without the signature.
 */
import { DomainError } from '../errors.js';

export interface AnchorEntry {
  readonly type: 'anchor';
  readonly id: string;
  readonly kind: 'data' | 'signature';
  /** Milliseconds since 1970, when the anchor was made. */
  readonly created: number;
  readonly public: boolean;
  /** The receipt's target hash (hex): a data anchor's hash, a signature anchor's SHA-256(signature); null for a private data anchor. */
  readonly leaf: string | null;
  /** The hash a public signature anchor's signature signs (hex); null otherwise. */
  readonly signedHash: string | null;
  readonly pubKey: string | null;
  readonly signedIdentity: string | null;
  readonly signedIssuerDomain: string | null;
}

export type SignerEventName = 'SIGNED' | 'DECLINED' | 'COMPLETED' | 'CANCELED';

export interface SignerEventEntry {
  readonly type: 'signer-event';
  readonly event: SignerEventName;
  readonly request: string;
  /** The signer's id (SIGNED, DECLINED); null for the request's own moves. */
  readonly signer: string | null;
  /** The signature's anchor (SIGNED); null otherwise. */
  readonly anchor: string | null;
  /** The signature's key and signed identity as its anchor stores them (SIGNED); null otherwise. */
  readonly pubKey: string | null;
  readonly signedIdentity: string | null;
  /** Milliseconds since 1970. */
  readonly time: number;
}

export interface CheckpointReceiptEntry {
  readonly type: 'checkpoint-receipt';
  /** The size and root (hex) of the checkpoint sealed. */
  readonly size: number;
  readonly root: string;
  /** The anchor that sealed the root, and its Chainpoint v2 receipt. */
  readonly anchor: string;
  readonly receipt: unknown;
}

export type LogEntry = AnchorEntry | SignerEventEntry | CheckpointReceiptEntry;

/** The entry's bytes: members in the documented order, whatever order the object was built in. */
export function encodeEntry(e: LogEntry): Buffer {
  return Buffer.from(JSON.stringify(ordered(e)), 'utf8');
}

function ordered(e: LogEntry): object {
  switch (e.type) {
    case 'anchor':
      return {
        type: e.type,
        id: e.id,
        kind: e.kind,
        created: e.created,
        public: e.public,
        leaf: e.leaf,
        signedHash: e.signedHash,
        pubKey: e.pubKey,
        signedIdentity: e.signedIdentity,
        signedIssuerDomain: e.signedIssuerDomain,
      };
    case 'signer-event':
      return {
        type: e.type,
        event: e.event,
        request: e.request,
        signer: e.signer,
        anchor: e.anchor,
        pubKey: e.pubKey,
        signedIdentity: e.signedIdentity,
        time: e.time,
      };
    case 'checkpoint-receipt':
      return { type: e.type, size: e.size, root: e.root, anchor: e.anchor, receipt: e.receipt };
  }
}

/**
 * Reads an entry; its bytes must be exactly those {@link encodeEntry} writes for it.
 * @throws DomainError VALIDATION_FAILED otherwise
 */
export function decodeEntry(bytes: Uint8Array): LogEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'a log entry is not JSON');
  }
  const type = (parsed as { type?: unknown } | null)?.type;
  if (type !== 'anchor' && type !== 'signer-event' && type !== 'checkpoint-receipt')
    throw new DomainError('VALIDATION_FAILED', 'a log entry has no known type');
  const entry = parsed as LogEntry;
  if (!encodeEntry(entry).equals(Buffer.from(bytes)))
    throw new DomainError('VALIDATION_FAILED', 'a log entry is not in its canonical form');
  return entry;
}

/** Whether an entry was made under the key (`pubKey` as stored: an address or a public key). */
export function entryHasKey(e: LogEntry, key: string): boolean {
  return e.type !== 'checkpoint-receipt' && e.pubKey === key;
}

/** Whether an entry's signed identity is `identity`, or names it as one of its fields (`CN=…`, say). */
export function entryHasIdentity(e: LogEntry, identity: string): boolean {
  if (e.type === 'checkpoint-receipt' || e.signedIdentity === null) return false;
  return e.signedIdentity === identity || e.signedIdentity.split(',').some((part) => part.trim() === identity);
}
