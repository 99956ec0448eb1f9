/** The identity repositories, on the embedded PostgreSQL and on a PostgreSQL server. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { IdentityKey } from '../../../src/app/identity/identity.port.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

function key(pubKey: string, created: number, extra: Partial<IdentityKey> = {}): IdentityKey {
  return {
    id: randomUUID(),
    name: pubKey,
    pubKey,
    publicKey: `02${'ab'.repeat(32)}`,
    privateKeySealed: 'v1.a.b.c',
    identity: { commonName: `CN ${pubKey}` },
    expiration: null,
    revokedAt: null,
    created,
    ...extra,
  };
}

for (const kind of kinds) {
  describe(`identity store on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    before(async () => {
      s = await kind.open();
    });
    after(async () => {
      await s?.destroy();
    });

    it('keys: absent identity fields stay absent, pubKey is unique, the newest live key, revoke once', async () => {
      const full = key('1Full', 1, {
        identity: {
          commonName: 'Jane',
          organization: 'Acme',
          organizationalUnit: 'R&D',
          locality: 'Paris',
          country: 'FR',
          emailAddress: 'j@a.co',
        },
        expiration: 5000,
      });
      assert.equal(await s.store.identityKeys.insert(full), true);
      assert.equal(await s.store.identityKeys.insert({ ...key('1Full', 2) }), false);
      assert.deepEqual(await s.store.identityKeys.findByPubKey('1Full'), full);
      await s.store.identityKeys.insert(key('1Old', 2));
      await s.store.identityKeys.insert(key('1New', 3));
      assert.deepEqual((await s.store.identityKeys.findByPubKey('1Old'))!.identity, { commonName: 'CN 1Old' });
      assert.equal((await s.store.identityKeys.findNewestLive(4000))!.pubKey, '1New');
      assert.equal(await s.store.identityKeys.revoke('1New', 10), true);
      assert.equal(await s.store.identityKeys.revoke('1New', 11), false);
      assert.equal((await s.store.identityKeys.findNewestLive(4000))!.pubKey, '1Old');
      await s.store.identityKeys.revoke('1Old', 12);
      assert.equal((await s.store.identityKeys.findNewestLive(4000))!.pubKey, '1Full');
      assert.equal(await s.store.identityKeys.findNewestLive(5000), null, 'expired at its expiration');
      assert.equal(await s.store.identityKeys.count(), 3);
      assert.deepEqual(
        (await s.store.identityKeys.list()).map((k) => k.pubKey),
        ['1New', '1Old', '1Full'],
      );
    });

    it('tokens: live lookup by hash, touch with a millisecond timestamp, revoke by hash or id', async () => {
      const t = { id: randomUUID(), name: 'ci', created: 1, lastUsed: null, revokedAt: null };
      await s.store.identityTokens.insert(t, 'hash-1');
      assert.deepEqual(await s.store.identityTokens.findLiveByHash('hash-1'), t);
      await s.store.identityTokens.touch(t.id, Date.now());
      assert.equal(typeof (await s.store.identityTokens.findLiveByHash('hash-1'))!.lastUsed, 'number');
      assert.equal(await s.store.identityTokens.revoke({ id: t.id }, 5), true);
      assert.equal(await s.store.identityTokens.findLiveByHash('hash-1'), null);
      assert.equal(await s.store.identityTokens.revoke({ tokenHash: 'hash-1' }, 6), false);
      assert.equal((await s.store.identityTokens.list())[0]!.revokedAt, 5);
    });
  });
}
