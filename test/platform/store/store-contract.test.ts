/** The Store contract: the same cases on the embedded PostgreSQL and on a PostgreSQL server. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Account } from '../../../src/app/accounts/account.port.js';
import { migrate } from '../../../src/adapters/store/migrate.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

function account(email: string): Account {
  return {
    id: randomUUID(),
    email,
    passwordHash: 'x',
    firstName: 'A',
    lastName: 'B',
    callbackSecretSealed: null,
    created: 1,
    lastModified: 1,
  };
}

for (const kind of kinds) {
  describe(`store contract on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    before(async () => {
      s = await kind.open();
    });
    after(async () => {
      await s?.destroy();
    });

    it('migrations are applied once and are idempotent', async () => {
      assert.deepEqual(await migrate(s.db, Date.now), []);
      const rows = await s.db.query<{ id: string }>('SELECT id FROM schema_migration ORDER BY id');
      assert.ok(rows.some((r) => r.id === '001-accounts'));
    });

    it('accounts: insert, find case-insensitively, refuse a duplicate e-mail', async () => {
      const a = account('Jane@Example.com');
      assert.equal(await s.store.accounts.insert(a), true);
      assert.equal(await s.store.accounts.insert(account('jane@example.COM')), false);
      const found = await s.store.accounts.findByEmail('jane@example.com');
      assert.equal(found?.id, a.id);
      assert.equal(found?.created, 1);
      assert.equal(typeof found?.created, 'number');
      assert.equal(await s.store.accounts.findById(randomUUID()), null);
    });

    it('tokens: live lookup by hash, revoke scoped to the account, purge', async () => {
      const a = account(`t-${randomUUID()}@example.com`);
      const b = account(`u-${randomUUID()}@example.com`);
      await s.store.accounts.insert(a);
      await s.store.accounts.insert(b);
      const t = { id: randomUUID(), accountId: a.id, name: 'ci', created: 10, lastUsed: null, revokedAt: null };
      await s.store.tokens.insert(t, 'hash-a');
      assert.equal((await s.store.tokens.findLiveByHash('hash-a'))?.id, t.id);
      const both = await s.store.tokens.findLiveWithAccount('hash-a');
      assert.equal(both?.token.id, t.id);
      assert.equal(both?.account.email, a.email);
      assert.equal(both?.account.created, 1);
      assert.equal(
        await s.store.tokens.revoke(b.id, { tokenHash: 'hash-a' }, 20),
        false,
        'another account cannot revoke it',
      );
      assert.equal(await s.store.tokens.revoke(a.id, { tokenHash: 'hash-a' }, 20), true);
      assert.equal(await s.store.tokens.findLiveByHash('hash-a'), null);
      assert.equal(await s.store.tokens.findLiveWithAccount('hash-a'), null);
      assert.equal(await s.store.tokens.revoke(a.id, { tokenHash: 'hash-a' }, 21), false, 'already revoked');
      assert.equal(await s.store.tokens.purgeRevoked(15), 0);
      assert.equal(await s.store.tokens.purgeRevoked(25), 1);
    });

    it('callback secret: set-if-absent keeps the first, rotation replaces it', async () => {
      const a = account(`cb-${randomUUID()}@example.com`);
      await s.store.accounts.insert(a);
      const results = await Promise.all(
        ['s1', 's2', 's3'].map((v) => s.store.accounts.setCallbackSecretIfAbsent(a.id, v, 5)),
      );
      assert.equal(new Set(results).size, 1, `concurrent first writes agree: ${results.join(', ')}`);
      await s.store.accounts.setCallbackSecret(a.id, 'rotated', 6);
      assert.equal(await s.store.accounts.setCallbackSecretIfAbsent(a.id, 'late', 7), 'rotated');
    });

    it('a failed transaction leaves nothing behind', async () => {
      const a = account(`rollback-${randomUUID()}@example.com`);
      await assert.rejects(
        s.store.transaction(async (tx) => {
          await tx.accounts.insert(a);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await s.store.accounts.findById(a.id), null);
    });

    it('a committed transaction is visible outside', async () => {
      const a = account(`commit-${randomUUID()}@example.com`);
      await s.store.transaction((tx) => tx.accounts.insert(a));
      assert.equal((await s.store.accounts.findById(a.id))?.email, a.email);
    });

    it('settings: putIfAbsent keeps the first value', async () => {
      assert.equal(await s.store.settings.putIfAbsent('k', 'first', 1), 'first');
      assert.equal(await s.store.settings.putIfAbsent('k', 'second', 2), 'first');
      await s.store.settings.put('k', 'third', 3);
      assert.equal(await s.store.settings.get('k'), 'third');
      assert.equal(await s.store.settings.get('missing'), null);
    });

    it('ping answers', async () => {
      await s.store.ping();
    });
  });
}
