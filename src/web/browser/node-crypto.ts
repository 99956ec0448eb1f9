/**
 * What `src/core/hash/sha256.ts` uses of node:crypto, for the browser bundle: `createHash('sha256')` on
 * @noble/hashes. The bundler maps `node:crypto` to this file (scripts/build-web.mjs). Only SHA-256 exists here: any other algorithm is a bundling mistake.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** node's one-shot `crypto.hash` does not exist here; sha256.ts checks for it and falls back to createHash. */
export const hash: undefined = undefined;

/** The subset of node's Hash object that core calls. */
export interface BrowserHash {
  update(data: Uint8Array | string, encoding?: 'utf8'): BrowserHash;
  digest(): Buffer;
  digest(encoding: 'hex'): string;
}

/**
 * A SHA-256 hasher with node's chaining interface.
 * @throws Error when asked for another algorithm than sha256
 */
export function createHash(algorithm: string): BrowserHash {
  if (algorithm !== 'sha256') throw new Error(`browser bundle: only sha256 is available, not ${algorithm}`);
  const h = sha256.create();
  const hasher = {
    update(data: Uint8Array | string) {
      h.update(typeof data === 'string' ? new TextEncoder().encode(data) : data);
      return hasher;
    },
    digest(encoding?: 'hex') {
      const out = Buffer.from(h.digest());
      return encoding === 'hex' ? out.toString('hex') : out;
    },
  } as BrowserHash;
  return hasher;
}
