/**
 * Keys derived from SECRET_KEY with HKDF-SHA256, one per (salt, label). A derivation costs far more than
 * the HMAC or AES it keys, and the same few keys serve every request, so each is derived once per
 * SECRET_KEY and kept (a handful of 32-byte keys: the process holds SECRET_KEY itself anyway).
 */
import { hkdfSync } from 'node:crypto';
import { fail } from '../errors.js';

/** More entries than any process uses (SECRET_KEYs × labels); tests open many keys, so the memo is bounded. */
const MAX_ENTRIES = 256;
/** By secret key, then by salt and label (no key text built per call: several derivations per request). */
const memo = new Map<string, Map<string, Buffer>>();
let entries = 0;

/**
 * The 32-byte HKDF-SHA256 key of (ikm = UTF-8 `secretKey`, `salt`, info = `label`), derived once; each
 * call gets its own copy, so a caller wiping it does not wipe the kept one.
 * @throws DomainError VALIDATION_FAILED on an empty secret key or label
 */
export function derivedKey(secretKey: string, salt: string, label: string): Buffer {
  if (!secretKey) fail('VALIDATION_FAILED', '"secretKey" expected a non-empty string');
  if (!label) fail('VALIDATION_FAILED', '"label" expected a non-empty string');
  const id = `${salt.length}:${salt}${label}`;
  const known = memo.get(secretKey)?.get(id);
  if (known) return Buffer.from(known);
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), salt, label, 32));
  if (entries >= MAX_ENTRIES) {
    memo.clear();
    entries = 0;
  }
  let ofSecret = memo.get(secretKey);
  if (!ofSecret) memo.set(secretKey, (ofSecret = new Map()));
  ofSecret.set(id, key);
  entries += 1;
  return Buffer.from(key);
}
