/**
 * secp256k1 operations behind one small interface, with two backends: libsecp256k1 (`secp256k1` v5,
 * prebuilt N-API, ~20x faster on recovery) and @noble/curves (pure JS) when the native module does
 * not load. The native module is loaded by a dynamic `import()` in a try/catch rather than
 * `createRequire`: the import rules (core-is-pure) forbid `node:module` in core.
 */
import { secp256k1 as noble } from '@noble/curves/secp256k1.js';
import { DomainError } from '../errors.js';

export type SecpBackendName = 'native' | 'js';

/** The operations the signed-message code needs. All hashes are 32 bytes, signatures 64 bytes (r ‖ s). */
export interface SecpBackend {
  readonly name: SecpBackendName;
  /** Public key from a recoverable signature, or null when none can be recovered. */
  recover(signature64: Uint8Array, recid: number, hash32: Uint8Array, compressed: boolean): Uint8Array | null;
  /** Deterministic (RFC 6979) low-S signature with its recovery id. */
  sign(hash32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  /** Re-encode a SEC public key, or null when it is not a point on the curve. */
  convertPublicKey(publicKey: Uint8Array, compressed: boolean): Uint8Array | null;
}

type NativeModule = (typeof import('secp256k1/bindings.js'))['default'];

function nativeBackend(lib: NativeModule): SecpBackend {
  return {
    name: 'native',
    recover: (sig, recid, hash, compressed) => attempt(() => lib.ecdsaRecover(sig, recid, hash, compressed)),
    sign: (hash, key) => lib.ecdsaSign(hash, key),
    publicKey: (key, compressed) => lib.publicKeyCreate(key, compressed),
    convertPublicKey: (pub, compressed) => attempt(() => lib.publicKeyConvert(pub, compressed)),
  };
}

const jsBackend: SecpBackend = {
  name: 'js',
  recover: (sig, recid, hash, compressed) =>
    attempt(() =>
      noble.Signature.fromBytes(sig, 'compact').addRecoveryBit(recid).recoverPublicKey(hash).toBytes(compressed),
    ),
  sign: (hash, key) => {
    const sig = noble.sign(hash, key, { prehash: false, format: 'recovered' });
    return { signature: sig.subarray(1), recid: sig[0] };
  },
  publicKey: (key, compressed) => noble.getPublicKey(key, compressed),
  convertPublicKey: (pub, compressed) => attempt(() => noble.Point.fromBytes(pub).toBytes(compressed)),
};

function attempt(fn: () => Uint8Array): Uint8Array | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

async function loadNative(): Promise<SecpBackend | null> {
  try {
    return nativeBackend((await import('secp256k1/bindings.js')).default);
  } catch {
    return null;
  }
}

const native = await loadNative();
let active: SecpBackend = native ?? jsBackend;

/** The backend in use. */
export function secp(): SecpBackend {
  return active;
}

/** Name of the backend in use: `native` (libsecp256k1) or `js` (@noble/curves). */
export function activeSecpBackend(): SecpBackendName {
  return active.name;
}

/** True when libsecp256k1 loaded. */
export function nativeSecpAvailable(): boolean {
  return native !== null;
}

/**
 * Choose the backend (tests use it to exercise both).
 * @throws DomainError INTERNAL when `native` is asked for but did not load
 */
export function useSecpBackend(name: SecpBackendName): void {
  if (name === 'native' && native === null)
    throw new DomainError('INTERNAL', 'libsecp256k1 (secp256k1 v5) did not load');
  active = name === 'native' && native !== null ? native : jsBackend;
}
