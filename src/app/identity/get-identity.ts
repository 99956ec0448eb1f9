import { fail } from '../../core/errors.js';
import { identityKeyStatus, identityUrlOf, type IdentityKeyStatus } from '../../core/identity/key-status.js';
import type { IdentityDeps } from './identity-deps.js';
import { parseIdentity } from '../../core/identity/x500-name.js';
import type { IdentityKey, KeyIdentity } from './identity.port.js';
import { signWithKey } from './sign-hash.js';

export interface IdentityView {
  readonly identity: KeyIdentity;
  readonly key: { name: string; pubKey: string; status: IdentityKeyStatus; expiration?: number; revokedAt?: number };
  /** With `leftData`: identity URL + "." + random hex, chosen by the server. */
  readonly rightData?: string;
  /** With `leftData`: signed message of leftData + rightData, made by the key. */
  readonly signature?: string;
}

export const MAX_LEFT_DATA = 1024;

/**
 * The identity and status of a key (the newest live one when no pubKey is given). With `leftData`, a
 * proof that this server holds the key: it appends its own random `rightData` (starting with the key's
 * identity URL, so the proof cannot be replayed as another server's) and signs the concatenation.
 * A revoked or expired key makes no proof: the answer then only reports its status. With `signedIdentity`
 * that the key signed for on someone's behalf (a signature by delegation), that identity is the answer.
 * @throws DomainError NOT_FOUND for an unknown key; VALIDATION_FAILED for an empty or too long leftData
 */
export async function getIdentity(
  deps: IdentityDeps,
  input: { pubKey?: string; leftData?: string; signedIdentity?: string },
): Promise<IdentityView> {
  const now = deps.clock.now();
  const key =
    input.pubKey === undefined
      ? await deps.store.identityKeys.findNewestLive(now)
      : await deps.store.identityKeys.findByPubKey(input.pubKey);
  if (!key)
    fail(
      'NOT_FOUND',
      input.pubKey === undefined ? 'the identity server has no live key' : `no identity key ${input.pubKey}`,
    );
  const status = identityKeyStatus(key, now);
  const view: IdentityView = {
    identity: await answeredIdentity(deps, key, input.signedIdentity),
    key: {
      name: key.name,
      pubKey: key.pubKey,
      status,
      ...(key.expiration !== null ? { expiration: key.expiration } : {}),
      ...(key.revokedAt !== null ? { revokedAt: key.revokedAt } : {}),
    },
  };
  if (input.leftData === undefined || status !== 'valid') return view;
  if (input.leftData.length === 0 || input.leftData.length > MAX_LEFT_DATA)
    fail('VALIDATION_FAILED', `"leftData" must be 1 to ${MAX_LEFT_DATA} characters`);
  const rightData = `${identityUrlOf(deps.identity.publicUrl, key.pubKey)}.${deps.random.bytes(16).toString('hex')}`;
  return { ...view, rightData, signature: signWithKey(deps, key, input.leftData + rightData) };
}

/**
 * The identity to answer: the key's own, or `signedIdentity` when the key signed for it by delegation (the
 * platform vouches for the signers it signed for; a signature anchor of this store records each of them).
 */
async function answeredIdentity(
  deps: IdentityDeps,
  key: IdentityKey,
  signedIdentity: string | undefined,
): Promise<KeyIdentity> {
  if (signedIdentity === undefined || !(await deps.store.identityKeys.hasSignedFor(key.pubKey, signedIdentity)))
    return key.identity;
  const fields = parseIdentity(signedIdentity);
  return fields.commonName === undefined ? key.identity : { ...fields, commonName: fields.commonName };
}
