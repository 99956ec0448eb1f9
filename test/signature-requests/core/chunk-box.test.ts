/** Sealed chunks of documents: round trip, and every tampering (place, flag, key, bytes) caught. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { chunkKeyOf, objectNameOf, openChunk, sealChunk } from '../../../src/core/crypto/chunk-box.js';

const SECRET = 'a-secret-key-of-at-least-32-characters!!';
const key = chunkKeyOf(SECRET, randomBytes(16));
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'opened';
};

describe('chunk box', () => {
  it('opens what it sealed, at the same index and flag', () => {
    const plain = randomBytes(1000);
    assert.ok(openChunk(key, { index: 7, last: true }, sealChunk(key, { index: 7, last: true }, plain)).equals(plain));
  });

  it('refuses a chunk moved, re-flagged, under another key, altered or cut', () => {
    const sealed = sealChunk(key, { index: 3, last: false }, randomBytes(100));
    assert.equal(
      code(() => openChunk(key, { index: 4, last: false }, sealed)),
      'UNAUTHORIZED',
    );
    assert.equal(
      code(() => openChunk(key, { index: 3, last: true }, sealed)),
      'UNAUTHORIZED',
    );
    assert.equal(
      code(() => openChunk(chunkKeyOf(SECRET, randomBytes(16)), { index: 3, last: false }, sealed)),
      'UNAUTHORIZED',
    );
    const flipped = Buffer.from(sealed);
    flipped[10]! ^= 1;
    assert.equal(
      code(() => openChunk(key, { index: 3, last: false }, flipped)),
      'UNAUTHORIZED',
    );
    assert.equal(
      code(() => openChunk(key, { index: 3, last: false }, sealed.subarray(0, 8))),
      'UNAUTHORIZED',
    );
  });

  it('names objects by a keyed hash: stable per SECRET_KEY, unrelated to the hash itself', () => {
    const hash = 'ab'.repeat(32);
    assert.equal(objectNameOf(SECRET, hash), objectNameOf(SECRET, hash));
    assert.notEqual(objectNameOf(SECRET, hash), objectNameOf(SECRET + 'x', hash));
    assert.notEqual(objectNameOf(SECRET, hash), hash);
    assert.equal(
      code(() => objectNameOf(SECRET, 'AB'.repeat(32))),
      'VALIDATION_FAILED',
    );
  });
});
