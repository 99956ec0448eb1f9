import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { DomainError } from '../../../src/core/errors.js';
import { deriveSecretBoxKey, openSecret, sealSecret } from '../../../src/core/crypto/secret-box.js';

const SECRET = 'correct horse battery staple';
const IV = new Uint8Array(12).map((_, i) => i + 1);
const PLAIN = new Uint8Array(32).fill(0xab);
const utf8 = (s: string) => new TextEncoder().encode(s);

const isCode = (code: string) => (err: unknown) => err instanceof DomainError && err.code === code;

describe('secret-box', () => {
  it('seals to v1.<iv>.<ct>.<tag> in base64url and opens back', () => {
    const sealed = sealSecret(PLAIN, SECRET, 'anchoring-key', IV);
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(openSecret(sealed, SECRET, 'anchoring-key'), PLAIN);
  });

  it('derives the key with HKDF-SHA256 (cross-checked with @noble/hashes)', () => {
    const expected = hkdf(sha256, utf8(SECRET), utf8('proofseal/secret-box/v1'), utf8('anchoring-key'), 32);
    assert.deepEqual(new Uint8Array(deriveSecretBoxKey(SECRET, 'anchoring-key')), expected);
    assert.notDeepEqual(deriveSecretBoxKey(SECRET, 'anchoring-key'), deriveSecretBoxKey(SECRET, 'webhook-secret'));
  });

  it('is standard AES-256-GCM with the purpose as additional data (WebCrypto opens it)', async () => {
    const sealed = sealSecret(PLAIN, SECRET, 'anchoring-key', IV);
    const [, , ct, tag] = sealed.split('.') as [string, string, string, string];
    const key = await crypto.subtle.importKey('raw', deriveSecretBoxKey(SECRET, 'anchoring-key'), 'AES-GCM', false, [
      'decrypt',
    ]);
    const data = Buffer.concat([Buffer.from(ct, 'base64url'), Buffer.from(tag, 'base64url')]);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: IV, additionalData: Buffer.from('anchoring-key') },
      key,
      data,
    );
    assert.deepEqual(new Uint8Array(plain), PLAIN);
  });

  it('gives another ciphertext for another iv', () => {
    const other = new Uint8Array(12).fill(9);
    assert.notEqual(sealSecret(PLAIN, SECRET, 'p', IV), sealSecret(PLAIN, SECRET, 'p', other));
  });

  it('refuses to open with a wrong SECRET_KEY or another purpose, with a clear error', () => {
    const sealed = sealSecret(PLAIN, SECRET, 'anchoring-key', IV);
    assert.throws(
      () => openSecret(sealed, 'wrong', 'anchoring-key'),
      (err: unknown) => isCode('UNAUTHORIZED')(err) && /wrong SECRET_KEY/.test((err as Error).message),
    );
    assert.throws(() => openSecret(sealed, SECRET, 'other'), isCode('UNAUTHORIZED'));
  });

  it('detects tampering of the ciphertext or the tag', () => {
    const [v, iv, ct, tag] = sealSecret(PLAIN, SECRET, 'k', IV).split('.') as [string, string, string, string];
    const flip = (s: string) => {
      const b = Buffer.from(s, 'base64url');
      b[0]! ^= 1;
      return b.toString('base64url');
    };
    assert.throws(() => openSecret([v, iv, flip(ct), tag].join('.'), SECRET, 'k'), isCode('UNAUTHORIZED'));
    assert.throws(() => openSecret([v, iv, ct, flip(tag)].join('.'), SECRET, 'k'), isCode('UNAUTHORIZED'));
    assert.throws(() => openSecret([v, flip(iv), ct, tag].join('.'), SECRET, 'k'), isCode('UNAUTHORIZED'));
  });

  it('rejects malformed values, unknown versions and bad inputs', () => {
    const sealed = sealSecret(PLAIN, SECRET, 'k', IV);
    assert.throws(() => openSecret('v2' + sealed.slice(2), SECRET, 'k'), isCode('VALIDATION_FAILED'));
    assert.throws(() => openSecret('v1.abc', SECRET, 'k'), isCode('VALIDATION_FAILED'));
    assert.throws(() => openSecret(sealed.replace(/\.[^.]*$/, '.AAAA'), SECRET, 'k'), isCode('VALIDATION_FAILED'));
    assert.throws(() => openSecret(sealed + '!', SECRET, 'k'), isCode('VALIDATION_FAILED'));
    assert.throws(() => sealSecret(PLAIN, SECRET, 'k', new Uint8Array(16)), isCode('VALIDATION_FAILED'));
    assert.throws(() => sealSecret(PLAIN, '', 'k', IV), isCode('VALIDATION_FAILED'));
    assert.throws(() => sealSecret(PLAIN, SECRET, '', IV), isCode('VALIDATION_FAILED'));
  });
});
