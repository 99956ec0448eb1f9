/**
 * The sharing link of a signature request (`signatureRequestSharingURL`, docs/pages.md, "The sharing page"):
 * anyone holding it may follow the request, so it must be unguessable and carry no signer secret.
 *   token = base64url(HMAC-SHA256(K_share, UTF-8 requestId))   (K_share: HKDF-SHA256 of SECRET_KEY)
 * It is derived again whenever needed (mails, the owner's view, the page), so nothing is stored, and a
 * database dump alone gives no sharing link.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '../crypto/derived-key.js';
import { isUuid } from '../text/uuid.js';

const HKDF_SALT = 'proofseal/sharing-token/v1';
/** The form of a sharing token: 43 base64url characters (256 bits). */
const SHARING_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The sharing token of a request.
 * @throws DomainError VALIDATION_FAILED when the key is empty
 */
export function deriveSharingToken(secretKey: string, requestId: string): string {
  return createHmac('sha256', derivedKey(secretKey, HKDF_SALT, 'sharing'))
    .update(requestId, 'utf8')
    .digest('base64url');
}

/** True when `id` and `token` have the form of a sharing link's parts (a request UUID, a 43-character token). */
export function isSharingLinkShape(id: string, token: string): boolean {
  return isUuid(id) && SHARING_TOKEN.test(token);
}

/** True when `token` is the sharing token of the request, compared in constant time. */
export function isSharingToken(secretKey: string, requestId: string, token: string): boolean {
  if (!SHARING_TOKEN.test(token)) return false;
  const expected = Buffer.from(deriveSharingToken(secretKey, requestId), 'utf8');
  const given = Buffer.from(token, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The path of the sharing page under the service's public URL: `/share/{requestId}/{token}`. */
export function sharingPath(secretKey: string, requestId: string): string {
  return `/share/${encodeURIComponent(requestId)}/${deriveSharingToken(secretKey, requestId)}`;
}
