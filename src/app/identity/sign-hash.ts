import { signMessage } from '../../core/bitcoin/signed-message.js';
import { openSecret } from '../../core/crypto/secret-box.js';
import { fail } from '../../core/errors.js';
import { assertHash } from '../../core/hash/hash-check.js';
import { identityBoundMessage } from '../../core/identity/identity-message.js';
import { issuerDomain } from '../../core/identity/issuer-domain.js';
import { formatIdentity } from '../../core/identity/x500-name.js';
import { identityKeyStatus, identityUrlOf } from '../../core/identity/key-status.js';
import type { IdentityDeps } from './identity-deps.js';
import { IDENTITY_KEY_PURPOSE, type IdentityKey } from './identity.port.js';
import type { Signer, SignRequest, SignResult } from './signer.port.js';

type Deps = Pick<IdentityDeps, 'store' | 'clock' | 'identity'>;

/**
 * Signs a hash with an identity key, as `GET /sign` does. Without `identityToSign` the signed message is
 * `hashToSign` itself; with it, the hex SHA-256 of signedHash + signedIdentity + signedIssuerDomain.
 * @throws DomainError INVALID_HASH (bad or empty-data hash), VALIDATION_FAILED (bad identityToSign),
 *   NOT_FOUND (unknown key, or no live key), KEY_REVOKED, KEY_EXPIRED
 */
export async function signHash(deps: Deps, request: SignRequest): Promise<SignResult> {
  const signedHash = assertHash(request.hashToSign, 'hashToSign', { refuseEmpty: true });
  const key = await signingKey(deps, request.pubKey);
  const identityURL = identityUrlOf(deps.identity.publicUrl, key.pubKey);
  const base = { pubKey: key.pubKey, signedHash, identityURL };
  if (request.identityToSign === undefined) {
    return { ...base, signature: signWithKey(deps, key, signedHash) };
  }
  const signedIdentity = formatIdentity(key.identity, request.identityToSign);
  const signedIssuerDomain = issuerDomain(identityURL);
  const message = identityBoundMessage(signedHash, signedIdentity, signedIssuerDomain);
  return { ...base, signature: signWithKey(deps, key, message), signedIdentity, signedIssuerDomain };
}

/**
 * How long the platform's in-process signer keeps a live key it read: the key read was one statement of
 * every signature by delegation. A key revoked by another process signs no more after this long.
 */
export const PLATFORM_KEY_CACHE_MS = 1000;

/** The in-process signer, and the same signer reading its key on another store. */
export interface LocalSigner extends Signer {
  /**
   * The same signer (and key cache) reading its key on `store`: a transaction's, so that signing inside
   * that transaction never waits for a second connection from the pool.
   */
  on(store: Deps['store']): Signer;
}

/**
 * The same code as the identity server, in process: the main service's Signer in the default run. With
 * `keyCacheMs`, a live key read from the store is kept that long (an expired one is never used: the
 * store is read again).
 */
export function localSigner(deps: Deps, opts: { keyCacheMs?: number } = {}): LocalSigner {
  const kept: KeyCache | null = opts.keyCacheMs ? new Map() : null;
  const on = (store: Deps['store']): Signer => {
    const keys = kept ? withCachedKeys(store, deps.store, deps.clock, kept, opts.keyCacheMs!) : store;
    return { sign: (request) => signHash({ ...deps, store: keys }, request) };
  };
  return { ...on(deps.store), on };
}

type KeyCache = Map<string, { key: Promise<IdentityKey | null>; until: number; refreshing?: boolean }>;

/**
 * The store with its key reads kept `ttlMs` while the key they found is valid. The read itself is kept,
 * so the signatures that arrive while it is under way wait for it rather than each reading again. A key
 * kept for half its period or more is read again on `background` (the service's store, not a
 * transaction's), while signatures go on with the kept one: under steady signing the key is never read on
 * a signature's own transaction, where the read was one round trip more for that transaction (and for
 * every signature sharing it) once a period. The kept key is still never used longer than `ttlMs` after
 * the read that found it started.
 */
function withCachedKeys(
  store: Deps['store'],
  background: Deps['store'],
  clock: Deps['clock'],
  kept: KeyCache,
  ttlMs: number,
): Deps['store'] {
  const keys = store.identityKeys;
  function refresh(id: string, now: number, hit: { refreshing?: boolean }): void {
    hit.refreshing = true;
    const read = id === '' ? background.identityKeys.findNewestLive(now) : background.identityKeys.findByPubKey(id);
    read.then(
      (key) => {
        if (kept.get(id) !== hit) return;
        if (key === null) kept.delete(id);
        else kept.set(id, { key: Promise.resolve(key), until: now + ttlMs });
      },
      () => {
        // The kept key stays until its period ends; the next signature then reads it again.
      },
    );
  }
  async function through(id: string, now: number, read: () => Promise<IdentityKey | null>) {
    const hit = kept.get(id);
    const known = hit && hit.until > now ? await hit.key.catch(() => null) : null;
    if (known && identityKeyStatus(known, now) === 'valid') {
      if (hit!.until - now <= ttlMs / 2 && !hit!.refreshing && kept.get(id) === hit) refresh(id, now, hit!);
      return known;
    }
    const entry = { key: read(), until: now + ttlMs };
    kept.set(id, entry);
    // No key, or a failed read, is not kept.
    const forget = () => {
      if (kept.get(id) === entry) kept.delete(id);
    };
    void entry.key.then((key) => {
      if (key === null) forget();
    }, forget);
    return entry.key;
  }
  const identityKeys = {
    ...keys,
    findNewestLive: (now: number) => through('', now, () => keys.findNewestLive(now)),
    findByPubKey: (pubKey: string) => through(pubKey, clock.now(), () => keys.findByPubKey(pubKey)),
  };
  return { ...store, identityKeys };
}

/** The key asked for, or the newest live one; a revoked or expired key is refused. */
export async function signingKey(
  deps: Pick<Deps, 'store' | 'clock'>,
  pubKey: string | undefined,
): Promise<IdentityKey> {
  const now = deps.clock.now();
  const key =
    pubKey === undefined
      ? await deps.store.identityKeys.findNewestLive(now)
      : await deps.store.identityKeys.findByPubKey(pubKey);
  if (!key)
    fail(
      'NOT_FOUND',
      pubKey === undefined
        ? 'the identity server has no live key (an operator creates one: proofseal identity key create)'
        : `no identity key ${pubKey}`,
    );
  assertMaySign(key, now);
  return key;
}

/** @throws DomainError KEY_REVOKED or KEY_EXPIRED: such a key never signs. */
export function assertMaySign(key: IdentityKey, now: number): void {
  const status = identityKeyStatus(key, now);
  if (status === 'revoked')
    fail('KEY_REVOKED', `identity key ${key.pubKey} was revoked on ${new Date(key.revokedAt!).toISOString()}`);
  if (status === 'expired')
    fail('KEY_EXPIRED', `identity key ${key.pubKey} expired on ${new Date(key.expiration!).toISOString()}`);
}

/** A BIP-137 compressed-P2PKH signed-message signature of `message`; the opened secret is wiped after use. */
export function signWithKey(deps: Pick<Deps, 'identity'>, key: IdentityKey, message: string): string {
  let secret: Uint8Array;
  try {
    secret = openSecret(key.privateKeySealed, deps.identity.secretKey, IDENTITY_KEY_PURPOSE);
  } catch (err) {
    // A key that does not open is the server's fault (SECRET_KEY changed), never the caller's: a 500.
    throw new Error(`identity key ${key.pubKey} cannot be opened with this SECRET_KEY`, { cause: err });
  }
  try {
    return signMessage(message, secret, { addressType: 'p2pkh', compressed: true });
  } finally {
    secret.fill(0);
  }
}
