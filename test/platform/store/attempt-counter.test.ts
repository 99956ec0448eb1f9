/** The attempt counters behind every failed-login limit, on both stores. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { limitAttempts } from '../../../src/app/accounts/limit-attempts.js';
import { purgeExpiredAttempts } from '../../../src/app/accounts/purge-expired-attempts.js';
import { RateLimitedError } from '../../../src/core/errors.js';
import { testClock } from '../../support/fixtures.js';
import { storeKinds, type TestStore } from '../../support/stores.js';

const kinds = await storeKinds();
const W = 60_000;

for (const kind of kinds) {
  describe(`attempt counters on ${kind.name}`, { skip: kind.skip }, () => {
    let s: TestStore;
    before(async () => {
      s = await kind.open();
    });
    after(async () => {
      await s?.destroy();
    });

    it('reserve counts per key atomically, also under concurrency, and a later window starts again', async () => {
      const counts = await Promise.all(Array.from({ length: 40 }, () => s.store.attempts.reserve(['a', 'b'], 0, W)));
      assert.deepEqual(
        counts.map((c) => c[0]).sort((x, y) => x - y),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        counts.map((c) => c[1]).sort((x, y) => x - y),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.deepEqual(await s.store.attempts.reserve(['b', 'a'], 0, W), [41, 41], 'counts come in the order of keys');
      assert.deepEqual(await s.store.attempts.reserve(['a'], W, 2 * W), [1], 'the next window starts at one');
      assert.deepEqual(await s.store.attempts.reserve(['a'], 0, W), [2], 'a late caller joins the newer window');
    });

    it('release takes one back only in the same window and never below zero', async () => {
      await s.store.attempts.reserve(['r'], 0, W);
      await s.store.attempts.release(['r'], W);
      assert.deepEqual(await s.store.attempts.reserve(['r'], 0, W), [2], 'another window: nothing released');
      await s.store.attempts.release(['r'], 0);
      await s.store.attempts.release(['r'], 0);
      await s.store.attempts.release(['r'], 0);
      assert.deepEqual(await s.store.attempts.reserve(['r'], 0, W), [1]);
    });

    it('limitAttempts: failures keep their reservation, successes and refusals give it back', async () => {
      const clock = testClock(10 * W + 5_000);
      const deps = { store: s.store, clock };
      const limits = [{ key: 'login|x', max: 2 }];
      let runs = 0;
      const fails = () => limitAttempts(deps, { limits, windowMs: W, attempt: async () => (runs++, null) });
      const succeeds = () => limitAttempts(deps, { limits, windowMs: W, attempt: async () => (runs++, 'ok') });
      assert.equal(await succeeds(), 'ok');
      assert.equal(await fails(), null);
      assert.equal(await succeeds(), 'ok', 'a success does not count');
      assert.equal(await fails(), null);
      const refused = await fails().catch((e: unknown) => e);
      assert.ok(refused instanceof RateLimitedError);
      assert.equal(refused.code, 'RATE_LIMITED');
      assert.equal(refused.retryAfterSeconds, 55);
      assert.equal(runs, 4, 'a refused attempt never runs');
      await assert.rejects(succeeds(), RateLimitedError);
      clock.advance(W);
      assert.equal(await succeeds(), 'ok', 'the next window admits again');
    });

    it('an attempt that throws (e.g. the store failed) gives its reservation back', async () => {
      const deps = { store: s.store, clock: testClock(20 * W) };
      const limits = [{ key: 'login|throws', max: 1 }];
      const boom = () =>
        limitAttempts(deps, {
          limits,
          windowMs: W,
          attempt: async () => {
            throw new Error('store down');
          },
        });
      await assert.rejects(boom(), /store down/);
      await assert.rejects(boom(), /store down/, 'not RATE_LIMITED: the first one did not count');
    });

    it('the maintenance purge deletes expired counters only', async () => {
      await s.store.attempts.reserve(['old'], 0, 1_000);
      await s.store.attempts.reserve(['live'], 0, 10 * W);
      const purged = await purgeExpiredAttempts({ store: s.store, clock: testClock(5_000) });
      assert.ok(purged >= 1);
      const keys = (await s.db.query<{ key: string }>('SELECT key FROM attempt_counter')).map((r) => r.key);
      assert.ok(!keys.includes('old'));
      assert.ok(keys.includes('live'));
    });
  });
}
