/**
 * secp256k1 operations behind one small interface (a port of the core's own): the core carries the pure
 * JavaScript backend (@noble/curves) and uses it until it is given another; libsecp256k1 (`secp256k1` v5,
 * prebuilt N-API, ~20x faster on recovery) is a native module, so its adapter
 * (adapters/crypto/native-secp.ts) loads it and the composition root hands it in with `useSecpBackend`.
 */
import { secp256k1 as noble } from '@noble/curves/secp256k1.js';

export type SecpBackendName = 'native' | 'js';

/** The operations the signed-message code needs. All hashes are 32 bytes, signatures 64 bytes (r ‖ s). */
/** How a public key is SEC-encoded: 33 bytes (compressed) or 65 (uncompressed). */
export type KeyForm = 'compressed' | 'uncompressed';

export interface SecpBackend {
  readonly name: SecpBackendName;
  /** Public key from a recoverable signature, or null when none can be recovered. */
  recover(signature64: Uint8Array, recid: number, hash32: Uint8Array, form: KeyForm): Uint8Array | null;
  /** Deterministic (RFC 6979) low-S signature with its recovery id. */
  sign(hash32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKey(privateKey: Uint8Array, form: KeyForm): Uint8Array;
  /** Re-encode a SEC public key, or null when it is not a point on the curve. */
  convertPublicKey(publicKey: Uint8Array, form: KeyForm): Uint8Array | null;
}

const jsBackend: SecpBackend = {
  name: 'js',
  recover: (sig, recid, hash, form) =>
    attempt(() =>
      noble.Signature.fromBytes(sig, 'compact')
        .addRecoveryBit(recid)
        .recoverPublicKey(hash)
        .toBytes(form === 'compressed'),
    ),
  sign: (hash, key) => {
    const sig = noble.sign(hash, key, { prehash: false, format: 'recovered' });
    return { signature: sig.subarray(1), recid: sig[0] };
  },
  publicKey: (key, form) => noble.getPublicKey(key, form === 'compressed'),
  convertPublicKey: (pub, form) => attempt(() => noble.Point.fromBytes(pub).toBytes(form === 'compressed')),
};

function attempt(fn: () => Uint8Array): Uint8Array | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

let active: SecpBackend = jsBackend;

/** The backend in use. */
export function secp(): SecpBackend {
  return active;
}

/** Name of the backend in use: `native` (libsecp256k1) or `js` (@noble/curves). */
export function activeSecpBackend(): SecpBackendName {
  return active.name;
}

/** The pure JavaScript backend (@noble/curves), the one in use until another is given. */
export const jsSecpBackend: SecpBackend = jsBackend;

/**
 * Gives the backend every signed-message function uses from now on in this process (or thread): the
 * composition root gives libsecp256k1 when its adapter loads it (adapters/crypto/native-secp.ts); tests
 * switch between the two to exercise both.
 */
export function useSecpBackend(backend: SecpBackend): void {
  active = backend;
}
