import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lagOf, lsnBytes } from '../../../src/adapters/store/replica-set.js';

describe("a replica's lag, from the primary's sampled WAL positions", () => {
  const samples = [
    { at: 1_000, lsn: lsnBytes('0/3000000') },
    { at: 2_000, lsn: lsnBytes('0/3000100') },
    { at: 3_000, lsn: lsnBytes('0/3000100') },
    { at: 4_000, lsn: lsnBytes('1/0') },
  ];

  it('reads WAL positions as bytes, the high word shifted by 32 bits', () => {
    assert.equal(lsnBytes('0/0'), 0n);
    assert.equal(lsnBytes('16/B374D848'), (0x16n << 32n) + 0xb374d848n);
    assert.ok(lsnBytes('1/0') > lsnBytes('0/FFFFFFFF'));
  });

  it('is 0 once the replica replayed the last sampled position, whatever the time since its last transaction', () => {
    assert.equal(lagOf(lsnBytes('1/0'), samples, 60_000), 0);
    assert.equal(lagOf(lsnBytes('2/0'), samples, 60_000), 0);
    assert.equal(lagOf(lsnBytes('0/0'), [], 60_000), 0);
  });

  it('is the age of the oldest position it has not reached', () => {
    assert.equal(lagOf(lsnBytes('0/3000100'), samples, 5_000), 1, 'behind the sample of 4 s: 1 s');
    assert.equal(lagOf(lsnBytes('0/3000000'), samples, 5_000), 3, 'behind the sample of 2 s: 3 s');
    assert.equal(lagOf(lsnBytes('0/2000000'), samples, 5_000), 4, 'behind every sample kept: at least the oldest');
  });
});
