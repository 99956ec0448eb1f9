import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { derivedKey } from '../crypto/derived-key.js';

/** The names of static receipts under one SECRET_KEY: `(anchorId, txId) => name` (see {@link staticReceiptName}). */
export type StaticReceiptNamer = (anchorId: string, txId: string) => string;

/**
 * {@link staticReceiptName} under `secretKey`, its key derived once: each name then costs one HMAC (no key
 * derivation lookup, no copy of the key, no key object made per name), which a redirect pays per request.
 */
export function staticReceiptNamer(secretKey: string): StaticReceiptNamer {
  const key: KeyObject = createSecretKey(derivedKey(secretKey, 'proofseal/static-receipt/v2', 'name'));
  return (anchorId, txId) =>
    createHmac('sha256', key).update(`${anchorId.toLowerCase()}:${txId}`, 'utf8').digest('hex');
}

/**
 * The name of an anchor's static receipt for its batch's transaction `txId`: HMAC-SHA256 of the id and the
 * transaction id under a key derived from SECRET_KEY, hex. Only the service can tell which name an anchor
 * has, so a static receipt is found through `GET /v1/receipt/{id}` (which redirects to it) and cannot be
 * guessed from an id, nor an id read from a name (a CDN's logs do not give anchor ids away); it is as hard
 * to guess as a 256-bit key. The transaction is part of the name because it is the one thing a receipt's
 * text may change with (a reorg that puts the batch into another transaction): the object under a name
 * never changes, so it may be cached for good even while its batch is still under the reorg watch.
 */
export function staticReceiptName(secretKey: string, anchorId: string, txId: string): string {
  return staticReceiptNamer(secretKey)(anchorId, txId);
}
