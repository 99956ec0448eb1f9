import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { DomainError } from '../../../src/core/errors.js';
import {
  assertHash,
  bytesToHex,
  doubleSha256,
  EMPTY_SHA256,
  hexToBytes,
  isHash,
  isLowerHex,
  sha256,
  sha256Hex,
  sha256Pair,
  sha256Utf8,
  sha256Utf8Base64,
  sha256Utf8Hex,
} from '../../../src/core/hash/index.js';

describe('sha256', () => {
  it('matches the FIPS 180-2 "abc" vector and the empty-data hash', () => {
    assert.equal(sha256Hex(Buffer.from('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256(new Uint8Array(0)).toString('hex'), EMPTY_SHA256);
  });
  it('hashes strings as UTF-8', () => {
    const expected = createHash('sha256').update(Buffer.from('é€😀', 'utf8')).digest('hex');
    assert.equal(sha256Utf8Hex('é€😀'), expected);
    assert.equal(sha256Utf8('é€😀').toString('hex'), expected);
    assert.equal(sha256Utf8Base64('é€😀'), Buffer.from(expected, 'hex').toString('base64'));
  });
  it('gives every byte of the digest, those above 0x7f included (no text decoding on the way)', () => {
    for (let i = 0; i < 64; i++) {
      const data = Buffer.alloc(i * 7, i * 37);
      const digest = sha256(data);
      assert.equal(digest.length, 32);
      assert.deepEqual(digest, createHash('sha256').update(data).digest());
      assert.equal(sha256Hex(data), digest.toString('hex'));
    }
  });
  it('sha256Pair equals sha256 of the concatenation, doubleSha256 hashes twice', () => {
    const a = Buffer.from('01'.repeat(32), 'hex');
    const b = Buffer.from('02'.repeat(32), 'hex');
    assert.deepEqual(sha256Pair(a, b), sha256(Buffer.concat([a, b])));
    assert.deepEqual(doubleSha256(a), sha256(sha256(a)));
  });
});

describe('isHash / assertHash', () => {
  const good = 'a'.repeat(64);
  it('accepts 64 lowercase hex chars', () => {
    assert.equal(isHash(good), true);
    assert.equal(assertHash(good), good);
  });
  it('refuses upper case, wrong length, non-hex and non-strings with labelled messages', () => {
    assert.equal(isHash('A'.repeat(64)), false);
    assert.throws(() => assertHash('A'.repeat(64), 'hash'), {
      code: 'INVALID_HASH',
      message: '"hash" expected lowercase hex, got upper-case characters',
    });
    assert.throws(() => assertHash('a'.repeat(63), 'hash'), {
      message: '"hash" expected 64 lowercase hex chars, got 63',
    });
    assert.throws(() => assertHash('g'.repeat(64), 'x'), {
      message: '"x" expected 64 lowercase hex chars, got a non-hex character',
    });
    assert.throws(() => assertHash(42, 'x'), { message: '"x" expected 64 lowercase hex chars, got number' });
    assert.throws(() => assertHash(null, 'x'), DomainError);
  });
  it('refuses the empty-data hash only when asked', () => {
    assert.equal(isHash(EMPTY_SHA256), true);
    assert.equal(isHash(EMPTY_SHA256, { refuseEmpty: true }), false);
    assert.throws(() => assertHash(EMPTY_SHA256, 'hashToSign', { refuseEmpty: true }), {
      code: 'INVALID_HASH',
      message: /empty data/,
    });
  });
});

describe('hex helpers', () => {
  it('round-trips and checks length and case', () => {
    assert.equal(bytesToHex(hexToBytes('00ff10')), '00ff10');
    assert.equal(bytesToHex(new Uint8Array([1, 2]).subarray(1)), '02');
    assert.equal(isLowerHex('abc'), false);
    assert.equal(isLowerHex('ab', 2), false);
    assert.throws(() => hexToBytes('AB', 'h'), {
      code: 'INVALID_HASH',
      message: '"h" expected an even number of lowercase hex chars, got upper-case characters',
    });
    assert.throws(() => hexToBytes('ab', 'h', 2), { message: '"h" expected 4 lowercase hex chars, got 2' });
  });
});
