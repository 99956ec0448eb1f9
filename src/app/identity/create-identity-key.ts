import { addressFromPublicKey } from '../../core/bitcoin/addresses.js';
import { publicKeyOf } from '../../core/bitcoin/signed-message.js';
import { sealSecret } from '../../core/crypto/secret-box.js';
import { fail } from '../../core/errors.js';
import type { IdentityDeps } from './identity-deps.js';
import { IDENTITY_KEY_PURPOSE, type IdentityKey, type KeyIdentity } from './identity.port.js';

export interface CreateIdentityKeyInput {
  readonly name: string;
  readonly identity: KeyIdentity;
  /** ms; absent or null = never expires. */
  readonly expiration?: number | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_FIELD = 200;

/**
 * Creates a signing key of the identity server. The key's `pubKey` is its P2PKH address in mainnet form
 * (a compressed key), the form identity servers commonly hand out whatever chain the anchors go to;
 * the secret key is stored only sealed with SECRET_KEY.
 * @throws DomainError VALIDATION_FAILED for a bad name, identity field or expiration
 */
export async function createIdentityKey(deps: IdentityDeps, input: CreateIdentityKeyInput): Promise<IdentityKey> {
  const now = deps.clock.now();
  const identity = checkIdentity(input.identity);
  const name = input.name.trim();
  if (name === '' || name.length > 100) fail('VALIDATION_FAILED', '"name" must be 1 to 100 characters');
  const expiration = input.expiration ?? null;
  if (expiration !== null && !(Number.isSafeInteger(expiration) && expiration > now))
    fail('VALIDATION_FAILED', '"expiration" must be in the future');
  const { secret, publicKey } = newKeyPair(deps.random.bytes);
  const key: IdentityKey = {
    id: deps.random.uuid(),
    name,
    pubKey: addressFromPublicKey(publicKey, 'p2pkh', 'mainnet'),
    publicKey: publicKey.toString('hex'),
    privateKeySealed: sealSecret(secret, deps.identity.secretKey, IDENTITY_KEY_PURPOSE, deps.random.bytes(12)),
    identity,
    expiration,
    revokedAt: null,
    created: now,
  };
  secret.fill(0);
  if (!(await deps.store.identityKeys.insert(key))) fail('ALREADY_EXISTS', `identity key ${key.pubKey} exists`);
  return key;
}

/** A random secret key; a draw outside the curve order (odds ~2^-128) is drawn again. */
function newKeyPair(bytes: (n: number) => Buffer): { secret: Buffer; publicKey: Buffer } {
  for (;;) {
    const secret = bytes(32);
    try {
      return { secret, publicKey: publicKeyOf(secret, 'compressed') };
    } catch {
      secret.fill(0);
    }
  }
}

function checkIdentity(given: KeyIdentity): KeyIdentity {
  const field = (label: string, v: string | undefined): string | undefined => {
    const t = v?.trim() ?? '';
    if (t === '') return undefined;
    if (t.length > MAX_FIELD || /[\u0000-\u001f\u007f]/.test(t))
      fail('VALIDATION_FAILED', `"${label}" must be at most ${MAX_FIELD} printable characters`);
    return t;
  };
  const commonName = field('commonName', given.commonName);
  if (commonName === undefined) fail('VALIDATION_FAILED', '"commonName" (CN) is required');
  const country = field('country', given.country)?.toUpperCase();
  if (country !== undefined && !/^[A-Z]{2}$/.test(country))
    fail('VALIDATION_FAILED', '"country" (C) must be a two-letter ISO 3166 code');
  const emailAddress = field('emailAddress', given.emailAddress);
  if (emailAddress !== undefined && !EMAIL.test(emailAddress))
    fail('VALIDATION_FAILED', `"emailAddress" is not an e-mail address: ${emailAddress}`);
  const organization = field('organization', given.organization);
  const organizationalUnit = field('organizationalUnit', given.organizationalUnit);
  const locality = field('locality', given.locality);
  return {
    commonName,
    ...(organization !== undefined && { organization }),
    ...(organizationalUnit !== undefined && { organizationalUnit }),
    ...(locality !== undefined && { locality }),
    ...(country !== undefined && { country }),
    ...(emailAddress !== undefined && { emailAddress }),
  };
}
