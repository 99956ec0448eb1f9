// tier: slow (measured: 10.2 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Shared transactions (src/adapters/store/shared-transactions.ts) on both stores: units arriving together
 * share one transaction; one failing unit costs its neighbours nothing but a second run, alone, and
 * leaves nothing of its own; a key is in one transaction at a time; units start in key order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sharedTransactions } from '../../../src/adapters/store/shared-transactions.js';
import type { Store } from '../../../src/app/shared/store.port.js';
import { DomainError } from '../../../src/core/errors.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`shared transactions on ${kind.name}`, { skip: kind.skip }, () => {
    let opened: TestStore;
    let transactions = 0;
    let store: Store;
    before(async () => {
      opened = await kind.open();
      // The store as the shared transactions see it, counting the transactions they open.
      store = {
        ...opened.store,
        transaction: (fn) => {
          transactions += 1;
          return opened.store.transaction(fn);
        },
      };
    });
    after(() => opened?.destroy());

    const shared = () => sharedTransactions(store, { maxUnits: 64, maxInFlight: kind.name === 'postgres' ? 2 : 1 });
    const stored = (key: string) => opened.store.settings.get(key);

    it('units arriving together share one transaction, and each gets its own answer', async () => {
      const t = shared();
      transactions = 0;
      const keys = Array.from({ length: 10 }, (_, i) => `together-${i}`);
      const answers = await Promise.all(
        keys.map((key) =>
          t.run(key, async (tx) => {
            await tx.settings.put(key, `value of ${key}`, Date.now());
            return key.toUpperCase();
          }),
        ),
      );
      assert.deepEqual(
        answers,
        keys.map((k) => k.toUpperCase()),
      );
      assert.equal(transactions, 1, 'ten units, one transaction');
      for (const key of keys) assert.equal(await stored(key), `value of ${key}`);
    });

    it('a failing unit fails alone: its neighbours run again together and commit, nothing of it is kept', async () => {
      const t = shared();
      transactions = 0;
      const runs = new Map<string, number>();
      const keys = ['f-0', 'f-1', 'f-bad', 'f-3', 'f-4'];
      const settled = await Promise.allSettled(
        keys.map((key) =>
          t.run(key, async (tx) => {
            runs.set(key, (runs.get(key) ?? 0) + 1);
            await tx.settings.put(key, 'written', Date.now());
            if (key === 'f-bad') throw new DomainError('ALREADY_SIGNED', 'this one fails after writing');
            return key;
          }),
        ),
      );
      assert.deepEqual(
        settled.map((s) => s.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      const failure = settled[2] as PromiseRejectedResult;
      assert.ok(
        failure.reason instanceof DomainError && failure.reason.code === 'ALREADY_SIGNED',
        String(failure.reason),
      );
      assert.equal(transactions, 3, 'the shared one (rolled back), the failed unit alone, the four others together');
      assert.deepEqual([...runs.values()], [2, 2, 2, 2, 2]);
      assert.equal(await stored('f-bad'), null, 'the failing unit’s write is rolled back');
      for (const key of ['f-0', 'f-1', 'f-3', 'f-4']) assert.equal(await stored(key), 'written');
    });

    it('a key is in one transaction at a time; the units of one transaction start in key order', async () => {
      const t = shared();
      transactions = 0;
      let active = 0;
      let most = 0;
      const started: string[] = [];
      const unit = (key: string) => async (tx: Store) => {
        started.push(key);
        if (key === 'same') {
          active += 1;
          most = Math.max(most, active);
        }
        await tx.settings.get(key);
        await new Promise((r) => setTimeout(r, 5));
        if (key === 'same') active -= 1;
      };
      await Promise.all(['c', 'same', 'a', 'same', 'b', 'same'].map((key) => t.run(key, unit(key))));
      assert.equal(most, 1, 'never two units of one key at once');
      assert.deepEqual(started.slice(0, 4), ['a', 'b', 'c', 'same'], 'the first transaction, in key order');
      assert.deepEqual(started.slice(4), ['same', 'same']);
      assert.equal(transactions, 3, 'the units of the key "same" in three transactions');
    });
  });
}
