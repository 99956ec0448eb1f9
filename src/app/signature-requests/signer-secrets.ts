/** Creating signers with their secrets, and finding a signer from the secret it presents. */
import { fail } from '../../core/errors.js';
import {
  SIGNER_SALT_BYTES,
  deriveSignerSecret,
  looksLikeSignerSecret,
  sameLookupHash,
  signedEmailSalt,
  signerLookupHash,
} from '../../core/signature-requests/signer-secret.js';
import { committedEmail } from '../../core/signature-requests/audit-commitment.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import type { NewSigner, RequestAndSigner, Signer, SignerInput } from './signature-request.port.js';

/** The one answer for a wrong, revoked or foreign signer secret, or an unknown request: no hint of which. */
export const UNKNOWN_SIGNER_MESSAGE = 'no such signature request for this signer';

/** New signer rows for a request: a random salt each (the signer's secret derives from it) and an audit trail id. */
export function newSigners(
  deps: Pick<AppDeps, 'random' | 'secretKey'>,
  requestId: string,
  inputs: readonly SignerInput[],
): NewSigner[] {
  return inputs.map((s, position) => {
    const secretSalt = deps.random.bytes(SIGNER_SALT_BYTES);
    return {
      id: deps.random.uuid(),
      requestId,
      position,
      commonName: s.commonName,
      email: s.email ?? null,
      countryCallingCode: s.countryCallingCode ?? null,
      phone: s.phone ?? null,
      requiresOtp: s.requiresOTP ?? false,
      vars: s.vars ?? null,
      lang: s.lang ?? null,
      secretSalt,
      secretHash: signerLookupHash(deps.secretKey, deriveSignerSecret(deps.secretKey, secretSalt)),
      auditTrailId: deps.random.bytes(32).toString('hex'),
    };
  });
}

/**
 * The secret of a signer (`signeeId` on the wire), derived again from SECRET_KEY and its salt (for the signer's own view,
 * and for the e-mails that carry it). Never log it.
 */
export function signerSecretOf(deps: Pick<AppDeps, 'secretKey'>, signer: Pick<Signer, 'secretSalt'>): string {
  return deriveSignerSecret(deps.secretKey, signer.secretSalt);
}

/**
 * The request and the signer a secret designates. Wrong form, unknown, revoked (signers replaced in a
 * DRAFT) or another request's signer: all the same NOT_FOUND. The request and its signer are read in one
 * statement by keyed hash, then the hash derived again from the signer's salt is compared in constant time.
 * @throws DomainError NOT_FOUND
 */
export async function findSigner(
  deps: Pick<AppDeps, 'secretKey'> & { readonly store: Store },
  input: { requestId: string; signerSecret: string; lock?: boolean },
): Promise<RequestAndSigner> {
  if (!looksLikeSignerSecret(input.signerSecret)) fail('NOT_FOUND', UNKNOWN_SIGNER_MESSAGE);
  const hash = signerLookupHash(deps.secretKey, input.signerSecret);
  const found = await deps.store.signatureRequests.findForSigner(input.requestId, hash, { lock: input.lock ?? false });
  if (!found) fail('NOT_FOUND', UNKNOWN_SIGNER_MESSAGE);
  const again = signerLookupHash(deps.secretKey, signerSecretOf(deps, found.signer));
  if (!sameLookupHash(again, hash)) fail('NOT_FOUND', UNKNOWN_SIGNER_MESSAGE);
  return found;
}

/** The opening of a signer's e-mail as a delegated signature's identity commits to it; null without an e-mail. */
export function signedEmailOpening(
  deps: Pick<AppDeps, 'secretKey'>,
  signer: Signer,
): { salt: string; value: string; committed: string } | null {
  if (signer.email === null) return null;
  const salt = signedEmailSalt(deps.secretKey, signer.secretSalt);
  return { salt, value: signer.email, committed: committedEmail(salt, signer.email) };
}
