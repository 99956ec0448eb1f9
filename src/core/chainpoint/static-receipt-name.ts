import { createHmac } from 'node:crypto';
import { derivedKey } from '../crypto/derived-key.js';

/**
 * The name of an anchor's static receipt: HMAC-SHA256 of its id under a key derived from SECRET_KEY, hex.
 * Only the service can tell which name an anchor has, so a static receipt is found through
 * `GET /v1/receipt/{id}` (which redirects to it) and cannot be guessed from an id, nor an id read from a
 * name (a CDN's logs do not give anchor ids away); it is as hard to guess as a 256-bit key.
 */
export function staticReceiptName(secretKey: string, anchorId: string): string {
  const key = derivedKey(secretKey, 'proofseal/static-receipt/v1', 'name');
  return createHmac('sha256', key).update(anchorId.toLowerCase(), 'utf8').digest('hex');
}
