import { verifySignedMessage } from '../../core/bitcoin/signed-message.js';
import { DomainError, fail } from '../../core/errors.js';
import { identityBoundMessage } from '../../core/identity/identity-message.js';
import { issuerDomain } from '../../core/identity/issuer-domain.js';
import { signerIdentity } from '../../core/signature-requests/limits.js';
import type { SignatureVerifier } from '../anchoring/signature-verifier.port.js';
import { createAnchor, type CreateAnchorInput } from '../anchoring/create-anchor.js';
import { checkUserUrl } from '../shared/check-user-url.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import type { Origin } from './audit.js';
import { assertCanSign, assertSignerOpen, recordSignature } from './record-signature.js';
import { checkSignerOtp, consumeSignerOtp, recheckSignerOtp } from './signer-otp.js';
import { findSigner, signedEmailOpening } from './signer-secrets.js';
import type { PlatformSigner } from './platform-signer.port.js';
import type { SignatureRequest, Signer } from './signature-request.port.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'platformSigner' | 'mail'> &
  Partial<Pick<AppDeps, 'httpClient' | 'signatureVerifier'>>;

type Input = { id: string; signerSecret: string; otp?: string; origin?: Origin };
type Signed = { anchorId: string; request: SignatureRequest };

/**
 * Signs by delegation: the platform key signs `hashToSign` bound to the signer's identity
 * (`CN=<name>,EMAILADDRESS=<email>` and the platform's issuer domain), and the signature becomes an
 * anchor of the request (public or private as the request). The signature, anchor, audit event, callback,
 * mails and completion are written in one transaction, under the request's lock; a concurrent second
 * delegate of the same signer waits for the lock and gets ALREADY_SIGNED. The checks come in one order
 * on both kinds of key: the signer (NOT_FOUND), done already (ALREADY_SIGNED / ALREADY_DECLINED), its one-time
 * password (a wrong try is counted and committed), then whether it may sign now.
 *
 * One unit, in two steps: {@link prepare} does what must not run under the lock (a remote identity server is
 * called over the network), and nothing for a key signing in this process; then {@link underLock} reads the
 * signer once under the request's lock and signs (in process) or checks again what may have changed while the
 * remote server signed. The store may run the transaction together with those of other requests' signatures
 * (a unit of work keyed by the request's id): it has no effect outside the store, so it is safe to run again
 * after a rollback.
 * @throws DomainError NOT_FOUND (bad signer secret), ALREADY_SIGNED, ALREADY_DECLINED (before the OTP checks),
 *   the OTP errors, SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN, NOT_READY (no platform key, or the
 *   identity server does not answer), KEY_REVOKED / KEY_EXPIRED (the platform key may not sign)
 */
export async function signByDelegation(deps: Deps, input: Input): Promise<Signed> {
  const platform = deps.platformSigner ?? fail('NOT_READY', 'this server has no platform key to sign with');
  const prepared = platform.inProcess ? null : await prepare(deps, platform, input);
  const signed = await deps.store.transaction((tx) => underLock(tx, deps, platform, input, prepared), {
    unitKey: input.id.toLowerCase(),
  });
  if ('refused' in signed) throw signed.refused;
  return signed;
}

/** What a remote identity server signed before the transaction, and what the transaction checks it against. */
interface Prepared {
  readonly hashToSign: string;
  readonly otpId: string | null;
  readonly signature: DelegatedSignature;
  readonly verifier: SignatureVerifier;
}

/**
 * For a remote identity server, never called under the request's lock: the signer is read and checked (its
 * one-time password too, a wrong try counted and committed on its own), the hash signed and the signature
 * checked (verified, its identity URL taken).
 */
async function prepare(deps: Deps, platform: PlatformSigner, input: Input): Promise<Prepared> {
  const first = await findSigner(deps, { requestId: input.id, signerSecret: input.signerSecret });
  assertSignerOpen(first.signer);
  const otpId = await checkSignerOtp(deps, first.signer, input.otp);
  assertCanSign(first, deps.clock.now());
  const signature = await delegatedSignature(platform, first.request, identityOf(deps, first.signer));
  const verifier = await verifiedOutside(deps, signature);
  return { hashToSign: first.request.hashToSign, otpId, signature, verifier };
}

/**
 * The transaction: the request read once, under its lock, and the signer checked. With a key in this process,
 * its one-time password checked (a wrong one ends the transaction with only its try counted, committed, and
 * then fails) and the hash signed with the key read on the transaction's own connection; with a prepared
 * remote signature, what may have changed meanwhile checked again (signed or declined by now, the code still
 * the latest and unused, the hash and identity signed). Then whether it may sign now, and the write.
 */
async function underLock(
  tx: Store,
  deps: Deps,
  platform: PlatformSigner,
  input: Input,
  prepared: Prepared | null,
): Promise<Signed | { refused: DomainError }> {
  const found = await findSigner(
    { store: tx, secretKey: deps.secretKey },
    { requestId: input.id, signerSecret: input.signerSecret, lock: true },
  );
  assertSignerOpen(found.signer);
  let signed: { otpId: string | null; signature: DelegatedSignature; verifier: SignatureVerifier };
  if (prepared) {
    await recheckSignerOtp({ ...deps, store: tx }, found.signer, prepared.otpId, deps.clock.now());
    if (
      found.request.hashToSign !== prepared.hashToSign ||
      identityOf(deps, found.signer) !== prepared.signature.signedIdentity
    )
      fail('CONFLICT', 'the request changed while it was being signed; sign again');
    signed = prepared;
  } else {
    let otpId: string | null;
    try {
      otpId = await checkSignerOtp({ ...deps, store: tx }, found.signer, input.otp);
    } catch (err) {
      // Committed with nothing but the wrong try counted.
      if (err instanceof DomainError) return { refused: err };
      throw err;
    }
    const signerOn = platform.inProcess!;
    const signature = await delegatedSignature(
      { ...platform, signer: signerOn(tx) },
      found.request,
      identityOf(deps, found.signer),
    );
    signed = { otpId, signature, verifier: ownSignatureVerifier(deps, platform, signature) };
  }
  const now = deps.clock.now();
  assertCanSign(found, now);
  const write = { ...found, signature: signed.signature, otpId: signed.otpId, now, origin: input.origin };
  return writeSignature(tx, { ...deps, signatureVerifier: signed.verifier }, write);
}

/** The signature's anchor, the code used up, and what every signature records (record-signature.ts). */
async function writeSignature(
  tx: Store,
  deps: Deps,
  input: {
    request: SignatureRequest;
    signer: Signer;
    signature: DelegatedSignature;
    otpId: string | null;
    now: number;
    origin?: Origin;
  },
): Promise<Signed> {
  const { request, signer, now, origin } = input;
  await consumeSignerOtp(tx, { requestId: request.id, signer: signer, otpId: input.otpId, now, origin });
  const anchor = await createAnchor({ ...deps, store: tx }, anchorInput(request, signer, input.signature));
  const after = await recordSignature(
    tx,
    { request, signer, anchorId: anchor.id, method: 'delegated', now, origin },
    deps,
  );
  return { anchorId: anchor.id, request: after };
}

/** The identity a delegated signature binds: the signer's name and committed e-mail (no e-mail in plain). */
function identityOf(deps: Pick<AppDeps, 'secretKey'>, signer: Signer): string {
  return signerIdentity(signer.commonName, signedEmailOpening(deps, signer)?.committed ?? null);
}

type DelegatedSignature = Awaited<ReturnType<typeof delegatedSignature>>;

/** The platform's signature of the request's hash bound to the signer's identity and the platform's domain. */
async function delegatedSignature(platform: PlatformSigner, request: SignatureRequest, signedIdentity: string) {
  const message = identityBoundMessage(request.hashToSign, signedIdentity, platform.issuerDomain);
  const signed = await platform.signer.sign({ hashToSign: message, pubKey: platform.pubKey });
  // The domain bound into the message must be that of the key's identity URL, or verifiers see a mismatch.
  if (issuerDomain(signed.identityURL) !== platform.issuerDomain)
    throw new Error(`the platform key's identity URL is not on ${platform.issuerDomain}: check PLATFORM_IDENTITY_URL`);
  return { ...signed, message, signedIdentity, signedIssuerDomain: platform.issuerDomain };
}

/** The signature verifier and identity-URL check that createAnchor would apply, run on `deps` as given. */
const verifierOf = (deps: Deps): Pick<SignatureVerifier, 'verify'> =>
  deps.signatureVerifier ?? { verify: async (m, s, p) => verifySignedMessage(m, s, p) };

/**
 * A remote identity server's signature, checked before the transaction as createAnchor checks any
 * signature anchor's (verified; its identity URL a URL the service may take), and the verifier that
 * createAnchor then uses under the lock: it accepts this very signature of this very message, checked
 * already, and verifies anything else.
 * @throws DomainError INVALID_SIGNATURE, INVALID_PUBKEY, INVALID_URL, FORBIDDEN_URL
 */
async function verifiedOutside(deps: Deps, signature: DelegatedSignature): Promise<SignatureVerifier> {
  const outcome = await verifierOf(deps).verify(signature.message, signature.signature, signature.pubKey);
  if (!outcome.ok) fail('INVALID_SIGNATURE', `the identity server's signature does not verify: ${outcome.reason}`);
  await checkUserUrl(deps.httpClient, signature.identityURL, 'identityURL');
  return acceptingOnly(deps, signature);
}

/**
 * The platform keys whose in-process signature this process has verified once. A key signing in this
 * process signs with libsecp256k1 (RFC 6979), from the private key stored with its address, which was
 * derived from that private key when the key was made: verifying each of its signatures again (a
 * recovery, ~50 µs of CPU under the request's lock) would only check that the key's row is consistent.
 * The first signature of each key in each process is still verified, which checks exactly that.
 */
const verifiedKeys = new WeakMap<PlatformSigner, Set<string>>();

/**
 * The verifier for createAnchor of an in-process signature: the first of each key verified as any
 * signature, the later ones taken as made (see verifiedKeys).
 */
function ownSignatureVerifier(deps: Deps, platform: PlatformSigner, signature: DelegatedSignature) {
  let keys = verifiedKeys.get(platform);
  if (!keys) verifiedKeys.set(platform, (keys = new Set()));
  if (keys.has(signature.pubKey)) return acceptingOnly(deps, signature);
  const verify = verifierOf(deps);
  const known = keys;
  return asVerifier(async (m: string, s: string, p: string) => {
    const outcome = await verify.verify(m, s, p);
    if (outcome.ok && m === signature.message && s === signature.signature && p === signature.pubKey) known.add(p);
    return outcome;
  });
}

/** A verifier that takes `signature` of its message as verified, and verifies anything else. */
function acceptingOnly(deps: Deps, signature: DelegatedSignature): SignatureVerifier {
  const verify = verifierOf(deps);
  return asVerifier((m, s, p) =>
    m === signature.message && s === signature.signature && p === signature.pubKey
      ? Promise.resolve({ ok: true })
      : verify.verify(m, s, p),
  );
}

/** Closing it closes nothing: the service's verifier (its threads) is the service's to close. */
const asVerifier = (verify: SignatureVerifier['verify']): SignatureVerifier => ({
  verify,
  close: () => Promise.resolve(),
});

function anchorInput(request: SignatureRequest, signer: Signer, signature: DelegatedSignature): CreateAnchorInput {
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
