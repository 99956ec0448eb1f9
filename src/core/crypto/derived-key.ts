/**
 * Keys derived from SECRET_KEY with HKDF-SHA256, one per (salt, label). A derivation costs far more than
 * the HMAC or AES it keys, and the same few keys serve every request, so each is derived once per
 * SECRET_KEY and kept (a handful of 32-byte keys: the process holds SECRET_KEY itself anyway).
 */
import { hkdfSync } from 'node:crypto';
import { fail } from '../errors.js';

/** More entries than any process uses (SECRET_KEYs × labels); tests open many keys, so the memo is bounded. */
const MAX_ENTRIES = 256;
const memo = new Map<string, Buffer>();

/**
 * The 32-byte HKDF-SHA256 key of (ikm = UTF-8 `secretKey`, `salt`, info = `label`), derived once; each
 * call gets its own copy, so a caller wiping it does not wipe the kept one.
 * @throws DomainError VALIDATION_FAILED on an empty secret key or label
 */
export function derivedKey(secretKey: string, salt: string, label: string): Buffer {
  if (!secretKey) fail('VALIDATION_FAILED', '"secretKey" expected a non-empty string');
  if (!label) fail('VALIDATION_FAILED', '"label" expected a non-empty string');
  const id = JSON.stringify([secretKey, salt, label]);
  const known = memo.get(id);
  if (known) return Buffer.from(known);
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), salt, label, 32));
  if (memo.size >= MAX_ENTRIES) memo.clear();
  memo.set(id, key);
  return Buffer.from(key);
}
