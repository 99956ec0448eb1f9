/**
 * Explorer links follow the network (issue 31): mainnet's explorers, testnet's and signet's pages on them, none
 * for regtest; a page with no server reads the network off the block headers where they tell it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockLookups, isBitcoinNetwork, networkOfHeaders } from '../../../src/core/bitcoin/explorers.js';

const hash = 'ab'.repeat(32);
const header = (bitsLE: string) => `${'00'.repeat(72)}${bitsLE}${'00'.repeat(4)}`;

describe('block explorers by network', () => {
  it('mainnet, testnet and signet link to their own pages; regtest to none', () => {
    assert.deepEqual(
      blockLookups('mainnet').map((l) => l.url(hash)),
      [`https://mempool.space/block/${hash}`, `https://blockstream.info/block/${hash}`],
    );
    assert.deepEqual(
      blockLookups('testnet').map((l) => l.url(hash)),
      [`https://mempool.space/testnet/block/${hash}`, `https://blockstream.info/testnet/block/${hash}`],
    );
    assert.deepEqual(
      blockLookups('signet').map((l) => l.url(hash)),
      [`https://mempool.space/signet/block/${hash}`],
    );
    assert.deepEqual(blockLookups('regtest'), []);
    assert.equal(isBitcoinNetwork('regtest'), true);
    assert.equal(isBitcoinNetwork('toString'), false);
  });

  it("reads regtest's and signet's fixed difficulty off the headers; anything else is mainnet", () => {
    assert.equal(networkOfHeaders([header('ffff7f20'), header('ffff7f20')]), 'regtest');
    assert.equal(networkOfHeaders([header('ae77031e')]), 'signet');
    assert.equal(networkOfHeaders([header('ffff001d')]), 'mainnet');
    assert.equal(networkOfHeaders([header('ffff7f20'), header('ffff001d')]), 'mainnet', 'mixed: not regtest');
    assert.equal(networkOfHeaders([]), 'mainnet');
    assert.equal(networkOfHeaders(['zz']), 'mainnet', 'a malformed header is left out');
  });
});
