import { createHash, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and tens of milliseconds per check on this machine). */
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LEN = 32;

function derive(password: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { ...p, maxmem: PARAMS.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * Hashes a password with scrypt; `salt` (16 random bytes) is passed in so this stays free of implicit randomness.
 * Format: `scrypt$N$r$p$<salt b64>$<key b64>`.
 */
export async function hashPassword(password: string, salt: Buffer): Promise<string> {
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64');
  const key = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** API tokens are 256-bit random values, so a plain SHA-256 is a safe one-way index for them. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** `ps_` + 43 base64url characters (32 random bytes). */
export function formatApiToken(random32: Buffer): string {
  return `ps_${random32.toString('base64url')}`;
}
