/**
 * libsecp256k1 (`secp256k1` v5, a prebuilt N-API module) as the core's `SecpBackend`. The native module
 * may be missing (no prebuilt binary for the platform): then there is no native backend, and the core keeps
 * its pure JavaScript one.
 */
import { createRequire } from 'node:module';
import { useSecpBackend, type SecpBackend, type SecpBackendName } from '../../core/bitcoin/secp-backend.js';

type NativeModule = (typeof import('secp256k1/bindings.js'))['default'];

const require = createRequire(import.meta.url);

function attempt(fn: () => Uint8Array): Uint8Array | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

function nativeBackend(lib: NativeModule): SecpBackend {
  return {
    name: 'native',
    recover: (sig, recid, hash, form) => attempt(() => lib.ecdsaRecover(sig, recid, hash, form === 'compressed')),
    sign: (hash, key) => lib.ecdsaSign(hash, key),
    publicKey: (key, form) => lib.publicKeyCreate(key, form === 'compressed'),
    convertPublicKey: (pub, form) => attempt(() => lib.publicKeyConvert(pub, form === 'compressed')),
  };
}

let loaded: SecpBackend | null | undefined;

/** The libsecp256k1 backend, or null when the native module does not load (loaded once). */
export function nativeSecp(): SecpBackend | null {
  if (loaded === undefined) {
    try {
      loaded = nativeBackend(require('secp256k1/bindings.js') as NativeModule);
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** Hands libsecp256k1 to the core when it loads; answers the backend then in use. */
export function useNativeSecpIfAvailable(): SecpBackendName {
  const native = nativeSecp();
  if (native) useSecpBackend(native);
  return native ? 'native' : 'js';
}
