/**
 * Block headers: fields and proof of work on Bitcoin's mainnet genesis block and block 1 (hashes known to every
 * Bitcoin tool), the compact target as Bitcoin Core decodes it, and headers files in both forms, refused at
 * the first fault.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hasProofOfWork,
  HeadersFileError,
  parseBlockHeader,
  parseHeadersFile,
  targetOfBits,
} from '../../../src/core/bitcoin/block-header.js';

const GENESIS =
  '0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c';
const BLOCK1 =
  '010000006fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000982051fd1e4ba744bbbe680e1fee14677ba1a3c3540bf7b1cdb606e857233e0e61bc6649ffff001d01e36299';
const GENESIS_HASH = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
const BLOCK1_HASH = '00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048';

const bytes = (hex: string) => Buffer.from(hex, 'hex');
const flip = (hex: string, at: number) => {
  const b = bytes(hex);
  b[at] ^= 1;
  return b.toString('hex');
};

describe('block headers', () => {
  it('reads the fields of the genesis block and block 1', () => {
    const g = parseBlockHeader(bytes(GENESIS));
    assert.equal(g.hash, GENESIS_HASH);
    assert.equal(g.previousHash, '00'.repeat(32));
    assert.equal(g.merkleRoot, '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b');
    assert.equal(g.time, 1231006505);
    assert.equal(g.bits, '1d00ffff');
    const b1 = parseBlockHeader(bytes(BLOCK1));
    assert.equal(b1.hash, BLOCK1_HASH);
    assert.equal(b1.previousHash, GENESIS_HASH);
    assert.throws(() => parseBlockHeader(bytes(GENESIS).subarray(1)), RangeError);
  });

  it('decodes compact targets as Bitcoin Core does, refusing negative, zero and overflowing ones', () => {
    assert.equal(targetOfBits(0x1d00ffff), 0xffffn << 208n);
    assert.equal(targetOfBits(0x207fffff), 0x7fffffn << 232n, 'regtest');
    assert.equal(targetOfBits(0x03123456), 0x123456n);
    assert.equal(targetOfBits(0x02123456), 0x1234n);
    assert.equal(targetOfBits(0x04923456), null, 'the sign bit');
    assert.equal(targetOfBits(0x1d000000), null, 'zero');
    assert.equal(targetOfBits(0x22123456), null, 'beyond 256 bits');
  });

  it('checks the proof of work against the header’s own bits', () => {
    assert.equal(hasProofOfWork(bytes(GENESIS)), true);
    assert.equal(hasProofOfWork(bytes(BLOCK1)), true);
    assert.equal(hasProofOfWork(bytes(flip(GENESIS, 79))), false, 'another nonce: the hash misses the target');
    assert.equal(hasProofOfWork(bytes(GENESIS).subarray(0, 79)), false);
  });
});

describe('headers files', () => {
  it('reads the binary form (from height 0) and the text form (heights, comments, blank lines)', () => {
    const bin = parseHeadersFile(Buffer.concat([bytes(GENESIS), bytes(BLOCK1)]));
    assert.deepEqual(
      [bin.firstHeight, bin.tipHeight, bin.hashAt(0), bin.hashAt(1), bin.hashAt(2)],
      [0, 1, GENESIS_HASH, BLOCK1_HASH, null],
    );
    const text = parseHeadersFile(Buffer.from(`# mainnet\n0 ${GENESIS}\n\n1 ${BLOCK1}\n`));
    assert.deepEqual(text.hashes, [GENESIS_HASH, BLOCK1_HASH]);
    const from1 = parseHeadersFile(Buffer.from(`1 ${BLOCK1}\n`));
    assert.deepEqual([from1.firstHeight, from1.hashAt(0), from1.hashAt(1)], [1, null, BLOCK1_HASH]);
    const bare = parseHeadersFile(Buffer.from(`${GENESIS}\n${BLOCK1}\n`));
    assert.equal(bare.hashAt(1), BLOCK1_HASH);
  });

  it('refuses a broken link, a header without its work, a gap, bad lines and a partial binary header', () => {
    const refused = (file: Buffer | string, message: RegExp) =>
      assert.throws(
        () => parseHeadersFile(Buffer.from(file)),
        (err: Error) => err instanceof HeadersFileError && message.test(err.message),
      );
    refused(`0 ${BLOCK1}\n1 ${GENESIS}\n`, /line 2: the header at height 1 does not link to the one before/);
    refused(`0 ${flip(GENESIS, 79)}\n`, /line 1: the header at height 0 .* lacks its proof of work/);
    refused(`0 ${GENESIS}\n2 ${BLOCK1}\n`, /line 2: height 2 does not follow 0/);
    refused(`0 ${GENESIS.slice(2)}\n`, /line 1: expected "<height> <160 hex chars>"/);
    refused(`x ${GENESIS}\n`, /line 1: "x" is not a height/);
    refused(Buffer.concat([bytes(GENESIS), Buffer.from([0, 1, 2])]), /multiple of 80 bytes/);
    refused('', /no header/);
  });
});
