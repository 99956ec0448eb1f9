/**
 * The platform's in-process signer keeps the live key it read for `keyCacheMs`: one store read per
 * period instead of one per signature, a revocation by another process seen after that period, and an
 * expired key never used.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openStore, type OpenedStore } from '../../../src/adapters/store/create-store.js';
import { createIdentityKey } from '../../../src/app/identity/create-identity-key.js';
import type { IdentityDeps } from '../../../src/app/identity/identity-deps.js';
import { localSigner } from '../../../src/app/identity/sign-hash.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { realRandom, testClock } from '../../support/fixtures.js';

const HASH = createHash('sha256').update('platform key cache').digest('hex');
const TTL = 1000;

describe('the platform key kept by the in-process signer', () => {
  let opened: OpenedStore;
  const clock = testClock(Date.UTC(2030, 0, 1));
  let reads = 0;
  let deps: IdentityDeps;

  before(async () => {
    opened = await openStore({ databaseUrl: undefined, embeddedDir: undefined, now: Date.now });
    const keys = opened.store.identityKeys;
    // Counts the key reads the signer makes.
    const counted: Store = {
      ...opened.store,
      identityKeys: {
        ...keys,
        findNewestLive: (now) => ((reads += 1), keys.findNewestLive(now)),
        findByPubKey: (pubKey) => ((reads += 1), keys.findByPubKey(pubKey)),
      },
    };
    deps = {
      store: counted,
      clock,
      random: realRandom,
      identity: { secretKey: 'k'.repeat(40), publicUrl: 'https://id.example.com' },
    };
  });
  after(async () => opened?.close());

  it('reads the key once per period, and sees a revocation made elsewhere after it', async () => {
    const key = await createIdentityKey(deps, { name: 'platform', identity: { commonName: 'Platform' } });
    const signer = localSigner(deps, { keyCacheMs: TTL });
    reads = 0;
    const together = await Promise.all(Array.from({ length: 5 }, () => signer.sign({ hashToSign: HASH })));
    assert.ok(together.every((s) => s.pubKey === key.pubKey));
    for (let i = 0; i < 5; i++) assert.equal((await signer.sign({ hashToSign: HASH })).pubKey, key.pubKey);
    assert.equal(reads, 1, 'one read for ten signatures, five of them at once');
    // Revoked through the store directly, as another process would.
    assert.equal(await opened.store.identityKeys.revoke(key.pubKey, clock.now()), true);
    clock.advance(TTL);
    await assert.rejects(signer.sign({ hashToSign: HASH }), { code: 'NOT_FOUND' });
    await assert.rejects(signer.sign({ hashToSign: HASH, pubKey: key.pubKey }), { code: 'KEY_REVOKED' });
    assert.equal(reads, 3, 'a key that is not live is read again every time');
  });

  it('never signs with a kept key once it has expired: the store is read again', async () => {
    const now = clock.now();
    const older = await createIdentityKey(deps, { name: 'a', identity: { commonName: 'A' }, expiration: now + 500 });
    const signer = localSigner(deps, { keyCacheMs: TTL });
    assert.equal((await signer.sign({ hashToSign: HASH, pubKey: older.pubKey })).pubKey, older.pubKey);
    clock.advance(500);
    await assert.rejects(signer.sign({ hashToSign: HASH, pubKey: older.pubKey }), { code: 'KEY_EXPIRED' });
  });

  it('reads a key kept for half its period again in the background, on the service store, not the signing one', async () => {
    const key = await createIdentityKey(deps, { name: 'c', identity: { commonName: 'C' } });
    const signer = localSigner(deps, { keyCacheMs: TTL });
    let onTransaction = 0;
    const keys = opened.store.identityKeys;
    // The store of a signing transaction: its reads are counted apart.
    const tx: Store = {
      ...deps.store,
      identityKeys: { ...keys, findNewestLive: (now) => ((onTransaction += 1), keys.findNewestLive(now)) },
    };
    reads = 0;
    assert.equal((await signer.on(tx).sign({ hashToSign: HASH })).pubKey, key.pubKey);
    assert.deepEqual([onTransaction, reads], [1, 0], 'the first read is the transaction own');
    clock.advance(0.6 * TTL);
    assert.equal((await signer.on(tx).sign({ hashToSign: HASH })).pubKey, key.pubKey);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([onTransaction, reads], [1, 1], 'kept over half its period: read again on the service store');
    clock.advance(0.45 * TTL);
    assert.equal((await signer.on(tx).sign({ hashToSign: HASH })).pubKey, key.pubKey);
    assert.deepEqual([onTransaction, reads], [1, 1], 'past the first period, the key read in the background signs');
    // Revoked elsewhere: the background read finds no live key, and the next signature reads for itself.
    assert.equal(await opened.store.identityKeys.revoke(key.pubKey, clock.now()), true);
    clock.advance(0.5 * TTL);
    assert.equal((await signer.on(tx).sign({ hashToSign: HASH })).pubKey, key.pubKey, 'within its period');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reads, 2);
    await assert.rejects(signer.on(tx).sign({ hashToSign: HASH }), { code: 'NOT_FOUND' });
    assert.equal(onTransaction, 2);
  });

  it('without keyCacheMs (the identity server), every signature reads the key', async () => {
    await createIdentityKey(deps, { name: 'b', identity: { commonName: 'B' } });
    const signer = localSigner(deps);
    reads = 0;
    await signer.sign({ hashToSign: HASH });
    await signer.sign({ hashToSign: HASH });
    assert.equal(reads, 2);
  });
});
