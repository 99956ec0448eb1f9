import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { derivedKey } from '../../../src/core/crypto/derived-key.js';
import { DomainError } from '../../../src/core/errors.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('derivedKey (memoised HKDF-SHA256)', () => {
  it('is HKDF-SHA256 of the secret key, salt and label, the same on every call', () => {
    const expected = hkdf(sha256, utf8('a secret key'), utf8('salt/v1'), utf8('label'), 32);
    assert.deepEqual(new Uint8Array(derivedKey('a secret key', 'salt/v1', 'label')), expected);
    assert.deepEqual(new Uint8Array(derivedKey('a secret key', 'salt/v1', 'label')), expected);
  });

  it('gives distinct keys for another secret key, salt or label', () => {
    const keys = [
      derivedKey('key one', 'salt', 'label'),
      derivedKey('key two', 'salt', 'label'),
      derivedKey('key one', 'other salt', 'label'),
      derivedKey('key one', 'salt', 'other label'),
    ].map((k) => k.toString('hex'));
    assert.equal(new Set(keys).size, 4);
  });

  it('hands out copies: wiping one leaves the next call intact', () => {
    const first = derivedKey('wipe me', 'salt', 'label');
    const hex = first.toString('hex');
    first.fill(0);
    assert.equal(derivedKey('wipe me', 'salt', 'label').toString('hex'), hex);
  });

  it('stays correct past the memo bound (many secret keys)', () => {
    for (let i = 0; i < 600; i++) {
      const expected = hkdf(sha256, utf8(`key ${i}`), utf8('s'), utf8('l'), 32);
      assert.deepEqual(new Uint8Array(derivedKey(`key ${i}`, 's', 'l')), expected);
    }
  });

  it('refuses an empty secret key or label', () => {
    const isValidation = (err: unknown) => err instanceof DomainError && err.code === 'VALIDATION_FAILED';
    assert.throws(() => derivedKey('', 'salt', 'label'), isValidation);
    assert.throws(() => derivedKey('key', 'salt', ''), isValidation);
  });
});
