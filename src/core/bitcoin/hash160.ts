/** RIPEMD-160(SHA-256(x)), the key and script hash of Bitcoin addresses. */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '../hash/sha256.js';

/** hash160 of `data`, 20 bytes. */
export function hash160(data: Uint8Array): Buffer {
  return Buffer.from(ripemd160(sha256(data)));
}

/** Script hash of the P2SH-P2WPKH redeem script `0014<keyHash>` for a 20-byte key hash. */
export function p2shP2wpkhScriptHash(keyHash: Uint8Array): Buffer {
  return hash160(Buffer.concat([Buffer.from([0x00, 0x14]), keyHash]));
}
