/** The block header fields and the proof-of-work rule, against Bitcoin's genesis block and regtest. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { meetsOwnTarget, parseBlockHeader, targetOfBits } from '../../src/core/bitcoin/block-header.js';

// Bitcoin's genesis block header, as every node serializes it.
const GENESIS =
  '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c';
const GENESIS_HASH = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';

describe('block header', () => {
  it('reads the genesis header: hash (checked with node:crypto), root, time, bits, nonce', () => {
    const h = parseBlockHeader(GENESIS);
    const d = createHash('sha256')
      .update(createHash('sha256').update(Buffer.from(GENESIS, 'hex')).digest())
      .digest();
    assert.equal(h.hash, Buffer.from(d).reverse().toString('hex'));
    assert.equal(h.hash, GENESIS_HASH);
    assert.equal(h.merkleRoot, '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
    assert.equal(h.time, 1231006505);
    assert.equal(h.bits, 0x1d00ffff);
    assert.equal(h.nonce, 2083236893);
    assert.equal(h.version, 1);
  });

  it('targets: the difficulty-1 target, regtest, and invalid encodings', () => {
    assert.equal(targetOfBits(0x1d00ffff), 0xffffn << 208n);
    assert.equal(targetOfBits(0x207fffff), 0x7fffffn << 232n);
    assert.equal(targetOfBits(0x03123456), 0x123456n);
    assert.equal(targetOfBits(0x01003456), null, 'a mantissa shifted to zero');
    assert.equal(targetOfBits(0x1d80ffff), null, 'the sign bit');
    assert.equal(targetOfBits(0x22010000), null, 'beyond 256 bits');
  });

  it('the genesis header meets its target; the same header with another nonce does not', () => {
    assert.ok(meetsOwnTarget(parseBlockHeader(GENESIS)));
    const other = GENESIS.slice(0, 152) + '00000000';
    assert.ok(!meetsOwnTarget(parseBlockHeader(other)));
    // Claiming an easier target changes the hash too: bits are part of what is hashed.
    const easier = GENESIS.slice(0, 144) + 'ffff7f20' + GENESIS.slice(152);
    assert.equal(parseBlockHeader(easier).bits, 0x207fffff);
  });

  it('refuses what is not a header', () => {
    assert.throws(() => parseBlockHeader('00'));
    assert.throws(() => parseBlockHeader(GENESIS.toUpperCase()));
  });
});
