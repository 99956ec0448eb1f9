import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import type { ReceiptSignature } from '../../core/chainpoint/receipt.js';
import { issuerDomain } from '../../core/identity/issuer-domain.js';
import { parseIdentity, type IdentityFields } from '../../core/identity/x500-name.js';
import type { AppDeps } from '../shared/deps.js';

export type IdentityStatus =
  'VERIFIED' | 'HTTP_ERROR' | 'IDENTITY_NOT_FOUND' | 'IDENTITY_MISMATCH' | 'INVALID_SIGNATURE' | 'DEPRECATED_KEY';

interface IdentityAnswer {
  identity?: IdentityFields;
  key?: { pubKey?: unknown; status?: unknown };
  rightData?: unknown;
  signature?: unknown;
}

/**
 * Asks the identity server named by `identityURL` who holds `pubKey`, with a fresh challenge
 * (`leftData`): the server must sign leftData + rightData with that key, and rightData must start with
 * the identity URL. The signed identity and issuer domain, when present, must match what it answers.
 */
export async function verifyIdentity(
  deps: Pick<AppDeps, 'httpClient' | 'random'>,
  sig: ReceiptSignature & { identityURL: string },
): Promise<IdentityStatus> {
  const leftData = deps.random.bytes(16).toString('hex');
  const answer = await askIdentityServer(deps, sig, leftData);
  if (typeof answer === 'string') return answer;
  if (answer.key?.pubKey !== sig.pubKey) return 'IDENTITY_MISMATCH';
  if (typeof answer.rightData !== 'string' || !answer.rightData.startsWith(sig.identityURL)) return 'IDENTITY_MISMATCH';
  if (!identityMatches(sig, answer.identity ?? {})) return 'IDENTITY_MISMATCH';
  if (
    typeof answer.signature !== 'string' ||
    !signatureHolds(leftData + answer.rightData, answer.signature, sig.pubKey)
  )
    return 'INVALID_SIGNATURE';
  return answer.key.status === 'valid' ? 'VERIFIED' : 'DEPRECATED_KEY';
}

async function askIdentityServer(
  deps: Pick<AppDeps, 'httpClient'>,
  sig: ReceiptSignature & { identityURL: string },
  leftData: string,
): Promise<IdentityAnswer | IdentityStatus> {
  if (!deps.httpClient) return 'HTTP_ERROR';
  let url: URL;
  try {
    url = new URL(sig.identityURL);
  } catch {
    return 'HTTP_ERROR';
  }
  url.searchParams.set('pubKey', sig.pubKey);
  url.searchParams.set('leftData', leftData);
  if (sig.signedIdentity !== undefined) url.searchParams.set('signedIdentity', sig.signedIdentity);
  try {
    const res = await deps.httpClient.request({
      method: 'GET',
      url: url.toString(),
      headers: { accept: 'application/json' },
      timeoutMs: 5000,
      maxResponseBytes: 64 * 1024,
    });
    if (res.status === 404) return 'IDENTITY_NOT_FOUND';
    if (res.status !== 200) return 'HTTP_ERROR';
    const body: unknown = JSON.parse(res.body.toString('utf8'));
    return typeof body === 'object' && body !== null ? (body as IdentityAnswer) : 'HTTP_ERROR';
  } catch {
    return 'HTTP_ERROR';
  }
}

function identityMatches(sig: ReceiptSignature & { identityURL: string }, identity: IdentityFields): boolean {
  try {
    if (sig.signedIssuerDomain !== undefined && sig.signedIssuerDomain !== issuerDomain(sig.identityURL)) return false;
    if (sig.signedIdentity === undefined) return true;
    const signed = parseIdentity(sig.signedIdentity);
    return (Object.keys(signed) as (keyof IdentityFields)[]).every((k) => signed[k] === identity[k]);
  } catch {
    return false;
  }
}

function signatureHolds(message: string, signature: string, pubKey: string): boolean {
  try {
    return verifySignedMessage(message, signature, pubKey).ok;
  } catch {
    return false;
  }
}
