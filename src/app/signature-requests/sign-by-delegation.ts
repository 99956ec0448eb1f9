import { DomainError, fail } from '../../core/errors.js';
import { identityBoundMessage } from '../../core/identity/identity-message.js';
import { issuerDomain } from '../../core/identity/issuer-domain.js';
import { signerIdentity } from '../../core/signature-requests/limits.js';
import { createAnchor, type CreateAnchorInput } from '../anchoring/create-anchor.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import type { Origin } from './audit.js';
import { assertCanSign, assertSignerOpen, recordSignature } from './record-signature.js';
import { checkSignerOtp, consumeSignerOtp } from './signer-otp.js';
import { findSigner, signedEmailOpening } from './signer-secrets.js';
import type { PlatformSigner } from './platform-signer.port.js';
import type { SignatureRequest, Signer } from './signature-request.port.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'platformSigner' | 'mail'>;

/**
 * Signs by delegation: the platform key signs `hashToSign` bound to the signer's identity
 * (`CN=<name>,EMAILADDRESS=<email>` and the platform's issuer domain), and the signature becomes an
 * anchor of the request (public or private as the request). One transaction: the request is read once,
 * under its lock, the signer checked, its one-time password (if it needs one) checked, the hash signed,
 * and the signature, anchor, audit event, callback, mails and completion written. A wrong one-time
 * password ends the transaction with only its try counted, committed, and then fails. The store may run
 * the transaction together with those of other requests' signatures (a unit of work keyed by the
 * request's id): it has no effect outside the store, so it is safe to run again after a rollback.
 * A concurrent second delegate of the same signer waits for the lock and gets ALREADY_SIGNED.
 * @throws DomainError NOT_FOUND (bad signeeId), ALREADY_SIGNED, ALREADY_DECLINED (before the OTP checks), SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN,
 *   the OTP errors, NOT_READY (no platform key), KEY_REVOKED / KEY_EXPIRED (the platform key may not sign)
 */
export async function signByDelegation(
  deps: Deps,
  input: { id: string; signeeId: string; otp?: string; origin?: Origin },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  const platform = deps.platformSigner ?? fail('NOT_READY', 'this server has no platform key to sign with');
  const signed = await deps.store.transaction(
    async (tx): Promise<{ anchorId: string; request: SignatureRequest } | { refused: DomainError }> => {
      const found = await findSigner(
        { store: tx, secretKey: deps.secretKey },
        { requestId: input.id, signeeId: input.signeeId, lock: true },
      );
      await assertSignerOpen(tx, found.signee);
      let otpId: string | null;
      try {
        otpId = await checkSignerOtp({ ...deps, store: tx }, found.signee, input.otp);
      } catch (err) {
        // Committed with nothing but the wrong try counted.
        if (err instanceof DomainError) return { refused: err };
        throw err;
      }
      const signer = platform.inProcess ? { ...platform, signer: platform.inProcess(tx) } : platform;
      const signature = await delegatedSignature(signer, found.request, identityOf(deps, found.signee));
      const now = deps.clock.now();
      assertCanSign(found, now);
      return writeSignature(tx, deps, { ...found, signature, otpId, now, origin: input.origin });
    },
    { unitKey: input.id.toLowerCase() },
  );
  if ('refused' in signed) throw signed.refused;
  return signed;
}

/** The signature's anchor, the code used up, and what every signature records (record-signature.ts). */
async function writeSignature(
  tx: Store,
  deps: Deps,
  input: {
    request: SignatureRequest;
    signee: Signer;
    signature: Awaited<ReturnType<typeof delegatedSignature>>;
    otpId: string | null;
    now: number;
    origin?: Origin;
  },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  const { request, signee: signer, now, origin } = input;
  await consumeSignerOtp(tx, { requestId: request.id, signee: signer, otpId: input.otpId, now, origin });
  const anchor = await createAnchor({ ...deps, store: tx }, anchorInput(request, signer, input.signature));
  const after = await recordSignature(
    tx,
    { request, signee: signer, anchorId: anchor.id, method: 'delegated', now, origin },
    deps,
  );
  return { anchorId: anchor.id, request: after };
}

/** The identity a delegated signature binds: the signer's name and committed e-mail (no e-mail in plain). */
function identityOf(deps: Pick<AppDeps, 'secretKey'>, signer: Signer): string {
  return signerIdentity(signer.commonName, signedEmailOpening(deps, signer)?.committed ?? null);
}

/** The platform's signature of the request's hash bound to the signer's identity and the platform's domain. */
async function delegatedSignature(platform: PlatformSigner, request: SignatureRequest, signedIdentity: string) {
  const message = identityBoundMessage(request.hashToSign, signedIdentity, platform.issuerDomain);
  const signed = await platform.signer.sign({ hashToSign: message, pubKey: platform.pubKey });
  // The domain bound into the message must be that of the key's identity URL, or verifiers see a mismatch.
  if (issuerDomain(signed.identityURL) !== platform.issuerDomain)
    throw new Error(`the platform key's identity URL is not on ${platform.issuerDomain}: check PLATFORM_IDENTITY_URL`);
  return { ...signed, signedIdentity, signedIssuerDomain: platform.issuerDomain };
}

function anchorInput(
  request: SignatureRequest,
  signer: Signer,
  signature: Awaited<ReturnType<typeof delegatedSignature>>,
): CreateAnchorInput {
  return {
    accountId: request.accountId,
    name: request.name,
    signedHash: request.hashToSign,
    signature: signature.signature,
    pubKey: signature.pubKey,
    identityURL: signature.identityURL,
    signedIdentity: signature.signedIdentity,
    signedIssuerDomain: signature.signedIssuerDomain,
    public: request.public,
    metadata: { signatureRequestId: request.id, auditTrailId: signer.auditTrailId },
  };
}
