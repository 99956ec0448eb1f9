/** The message a signer signs (docs/identity-server.md). */
import { assertHash } from '../hash/hash-check.js';
import { sha256Utf8Hex } from '../hash/sha256.js';

/**
 * Identity-bound message: hex SHA-256 of the UTF-8 concatenation signedHash + signedIdentity +
 * signedIssuerDomain (an absent part counts as empty).
 * @throws DomainError INVALID_HASH when `signedHash` is not 64 lowercase hex chars
 */
export function identityBoundMessage(signedHash: string, signedIdentity = '', signedIssuerDomain = ''): string {
  assertHash(signedHash, 'signedHash');
  return sha256Utf8Hex(signedHash + signedIdentity + signedIssuerDomain);
}

/**
 * The message whose signature an anchor carries: `signedHash` itself, or the identity-bound
 * message when `signedIdentity` or `signedIssuerDomain` is present.
 * @throws DomainError INVALID_HASH when `signedHash` is not 64 lowercase hex chars
 */
export function messageToSign(fields: {
  signedHash: string;
  signedIdentity?: string;
  signedIssuerDomain?: string;
}): string {
  const bound = fields.signedIdentity !== undefined || fields.signedIssuerDomain !== undefined;
  return bound
    ? identityBoundMessage(fields.signedHash, fields.signedIdentity, fields.signedIssuerDomain)
    : assertHash(fields.signedHash, 'signedHash');
}
