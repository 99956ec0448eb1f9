/** Request bodies of signature anchors, signed beforehand with one key (the verification is the server's work). */
import { randomBytes } from 'node:crypto';
import { addressFromPublicKey } from '../../src/core/bitcoin/addresses.js';
import { publicKeyOf, signMessage } from '../../src/core/bitcoin/signed-message.js';

/** `n` JSON bodies of `POST /v1/anchor`, each a distinct signed hash. */
export function signatureBodies(n: number): string[] {
  const key = randomBytes(32);
  const pubKey = addressFromPublicKey(publicKeyOf(key), 'p2pkh', 'mainnet');
  return Array.from({ length: n }, (_, i) => {
    const signedHash = randomBytes(32).toString('hex');
    return JSON.stringify({
      name: `bench-${i}`,
      signedHash,
      signature: signMessage(signedHash, key),
      pubKey,
      identityURL: 'https://id.example.com/identity',
    });
  });
}
