import { fail } from '../../core/errors.js';
import { createAnchor } from '../anchoring/create-anchor.js';
import { checkUserUrl } from '../shared/check-user-url.js';
import type { AppDeps } from '../shared/deps.js';
import type { Origin } from './audit.js';
import { assertSignerOpen, lockForSigning, recordSignature } from './record-signature.js';
import { checkSignerOtp, consumeSignerOtp } from './signer-otp.js';
import { findSigner } from './signer-secrets.js';
import type { SignatureRequest } from './signature-request.port.js';

export interface OwnKeySignature {
  readonly signedHash?: string;
  readonly signature: string;
  readonly pubKey: string;
  readonly identityURL?: string;
  readonly signedIdentity?: string;
  readonly signedIssuerDomain?: string;
}

/**
 * A signer signs with a key of its own: the signature of `hashToSign` (or of the identity-bound message)
 * is verified exactly as an anchor's, and becomes the signer's anchor of the request.
 * @throws DomainError NOT_FOUND, HASH_MISMATCH, INVALID_SIGNATURE, INVALID_PUBKEY, INVALID_URL, FORBIDDEN_URL, ALREADY_SIGNED,
 *   SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN, the OTP errors
 */
export async function signWithOwnKey(
  deps: Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail' | 'httpClient'>,
  input: OwnKeySignature & { id: string; signerSecret: string; otp?: string; origin?: Origin },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  // The identity server a verifier will be sent to: checked (address included) before any transaction.
  if (input.identityURL !== undefined) await checkUserUrl(deps.httpClient, input.identityURL, 'identityURL');
  const { signer: first, request: current } = await findSigner(deps, {
    requestId: input.id,
    signerSecret: input.signerSecret,
  });
  if (input.signedHash !== undefined && input.signedHash !== current.hashToSign)
    fail('HASH_MISMATCH', '"signedHash" is not the hashToSign of this request');
  assertSignerOpen(first);
  const otpId = await checkSignerOtp(deps, first, input.otp);
  return deps.store.transaction(async (tx) => {
    const now = deps.clock.now();
    const { request, signer } = await lockForSigning(tx, deps, {
      requestId: input.id,
      signerSecret: input.signerSecret,
      now,
    });
    await consumeSignerOtp(tx, { requestId: request.id, signer: signer, otpId, now, origin: input.origin });
    const anchor = await createAnchor(
      { ...deps, store: tx },
      {
        accountId: request.accountId,
        name: request.name,
        signedHash: request.hashToSign,
        signature: input.signature,
        pubKey: input.pubKey,
        identityURL: input.identityURL,
        signedIdentity: input.signedIdentity,
        signedIssuerDomain: input.signedIssuerDomain,
        public: request.public,
        metadata: { signatureRequestId: request.id, auditTrailId: signer.auditTrailId },
      },
    );
    const after = await recordSignature(
      tx,
      {
        request,
        signer,
        anchorId: anchor.id,
        method: 'own-key',
        now,
        origin: input.origin,
      },
      deps,
    );
    return { anchorId: anchor.id, request: after };
  });
}
