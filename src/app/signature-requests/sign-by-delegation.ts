import { fail } from '../../core/errors.js';
import { identityBoundMessage } from '../../core/identity/identity-message.js';
import { issuerDomain } from '../../core/identity/issuer-domain.js';
import { signeeIdentity } from '../../core/signature-requests/limits.js';
import { createAnchor, type CreateAnchorInput } from '../anchoring/create-anchor.js';
import type { Account } from '../accounts/account.port.js';
import type { AppDeps } from '../shared/deps.js';
import type { Store } from '../shared/store.port.js';
import { sharedTransactions, type SharedTransactions } from '../shared/shared-transaction.js';
import type { Origin } from './audit.js';
import { assertCanSign, assertSignerOpen, lockForSigning, recordSignature } from './record-signature.js';
import { checkSigneeOtp, consumeSigneeOtp } from './signee-otp.js';
import { findSignee, signedEmailOpening } from './signee-secrets.js';
import type { Signer } from '../identity/signer.port.js';
import type { PlatformSigner } from './platform-signer.port.js';
import type { SignatureRequest, Signee } from './signature-request.port.js';
import { BACKLOG_CAP } from '../mail/queue-email.js';

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'platformSigner' | 'mail'>;

/**
 * Signs by delegation: the platform key signs `hashToSign` bound to the signer's identity
 * (`CN=<name>,EMAILADDRESS=<email>` and the platform's issuer domain), and the signature becomes an
 * anchor of the request (public or private as the request). Signature, anchor, audit event, callback
 * and completion commit together; a concurrent second delegate of the same signer gets ALREADY_SIGNED.
 * @throws DomainError NOT_FOUND (bad signeeId), ALREADY_SIGNED, ALREADY_DECLINED (before the OTP checks), SIGNING_CLOSED, DEADLINE_PASSED, NOT_YOUR_TURN,
 *   the OTP errors, NOT_READY (no platform key), KEY_REVOKED / KEY_EXPIRED (the platform key may not sign)
 */
export async function signByDelegation(
  deps: Deps,
  input: { id: string; signeeId: string; otp?: string; origin?: Origin },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  const platform = deps.platformSigner ?? fail('NOT_READY', 'this server has no platform key to sign with');
  const inProcess = platform.inProcess;
  if (inProcess && input.otp === undefined) return signInOneTransaction(deps, platform, inProcess, input);
  const first = await findSignee(deps, { requestId: input.id, signeeId: input.signeeId });
  await assertSignerOpen(deps.store, first.signee);
  const otpId = await checkSigneeOtp(deps, first.signee, input.otp);
  // Signed before the transaction: a remote signer is never called under the request's lock, and a
  // one-time password is checked (a wrong try counted) outside it.
  const signature = await delegatedSignature(platform, first.request, identityOf(deps, first.signee));
  return deps.store.transaction(async (tx) => {
    const now = deps.clock.now();
    const { request, signee } = await lockForSigning(tx, deps, { requestId: input.id, signeeId: input.signeeId, now });
    if (request.hashToSign !== first.request.hashToSign || identityOf(deps, signee) !== signature.signedIdentity)
      fail('CONFLICT', 'the request changed while it was being signed; sign again');
    return writeSignature(tx, deps, { request, signee, signature, otpId, now, origin: input.origin });
  });
}

/** The shared transactions of each store's delegated signatures (see shared-transaction.ts). */
const sharedByStore = new WeakMap<Store, SharedTransactions>();

function sharedSigning(store: Store): SharedTransactions {
  let shared = sharedByStore.get(store);
  if (!shared) {
    shared = sharedTransactions(store, {
      maxUnits: 64,
      maxInFlight: store.kind === 'postgres' ? 2 : 1,
    });
    sharedByStore.set(store, shared);
  }
  return shared;
}

const readOnce = new WeakMap<Store, Store>();

/**
 * The shared transaction's store with each account and its mail backlog read once for all the signatures
 * it holds (the requester of the mails and its deliveries' priority; nothing in a signature changes an
 * account, and the mails of the signatures sharing the transaction share the backlog counted before them).
 */
function withAccountsReadOnce(tx: Store): Store {
  let store = readOnce.get(tx);
  if (!store) {
    const { accounts, emails } = tx;
    const read = new Map<string, Promise<Account | null>>();
    const findById = (id: string) => {
      const known = read.get(id) ?? accounts.findById(id);
      read.set(id, known);
      return known;
    };
    const counted = new Map<string, Promise<number>>();
    const countQueued = (id: string, cap: number) => {
      const known = counted.get(`${id}|${cap}`) ?? emails.countQueued(id, cap);
      counted.set(`${id}|${cap}`, known);
      return known;
    };
    store = { ...tx, accounts: { ...accounts, findById }, emails: { ...emails, countQueued } };
    readOnce.set(tx, store);
  }
  return store;
}

/**
 * The key signs in this process and no one-time password is given: the request is read once, under its
 * lock, and signed there, all in one transaction (with the checks in the same order as above), which
 * the signatures of other requests arriving at the same moment share (safe: a signature rolled back
 * with a failed neighbour is made again, alone).
 */
async function signInOneTransaction(
  deps: Deps,
  platform: PlatformSigner,
  signerOn: (store: Store) => Signer,
  input: { id: string; signeeId: string; origin?: Origin },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  return sharedSigning(deps.store).run(input.id.toLowerCase(), async (shared) => {
    const tx = withAccountsReadOnce(shared);
    const found = await findSignee(
      { store: tx, secretKey: deps.secretKey },
      { requestId: input.id, signeeId: input.signeeId, lock: true },
    );
    // The requester of the mails and its mail backlog, read now (once for all the signatures of the shared
    // transaction), so that the writes that follow are not split by their reads.
    if (deps.mail) {
      void tx.accounts.findById(found.request.accountId).catch(() => undefined);
      void tx.emails.countQueued(found.request.accountId, BACKLOG_CAP).catch(() => undefined);
    }
    await assertSignerOpen(tx, found.signee);
    // No code was given: OTP_REQUIRED for a signer who needs one (nothing to count, nothing read).
    const otpId = await checkSigneeOtp(deps, found.signee, undefined);
    const signer = { ...platform, signer: signerOn(tx) };
    const signature = await delegatedSignature(signer, found.request, identityOf(deps, found.signee));
    const now = deps.clock.now();
    assertCanSign(found, now);
    return writeSignature(tx, deps, { ...found, signature, otpId, now, origin: input.origin });
  });
}

/** The signature's anchor, the code used up, and what every signature records (record-signature.ts). */
async function writeSignature(
  tx: Store,
  deps: Deps,
  input: {
    request: SignatureRequest;
    signee: Signee;
    signature: Awaited<ReturnType<typeof delegatedSignature>>;
    otpId: string | null;
    now: number;
    origin?: Origin;
  },
): Promise<{ anchorId: string; request: SignatureRequest }> {
  const { request, signee, now, origin } = input;
  await consumeSigneeOtp(tx, { requestId: request.id, signee, otpId: input.otpId, now, origin });
  const anchor = await createAnchor({ ...deps, store: tx }, anchorInput(request, signee, input.signature));
  const after = await recordSignature(
    tx,
    { request, signee, anchorId: anchor.id, method: 'delegated', now, origin },
    deps,
  );
  return { anchorId: anchor.id, request: after };
}

/** The identity a delegated signature binds: the signer's name and committed e-mail (no e-mail in plain). */
function identityOf(deps: Pick<AppDeps, 'secretKey'>, signee: Signee): string {
  return signeeIdentity(signee.commonName, signedEmailOpening(deps, signee)?.committed ?? null);
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
  signee: Signee,
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
    metadata: { signatureRequestId: request.id, auditTrailId: signee.auditTrailId },
  };
}
