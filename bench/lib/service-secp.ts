/**
 * The secp256k1 backend a bench's server runs with, set as the service's composition root sets it
 * (src/runtime.ts): libsecp256k1 when its native module loads. A bench server built from parts skips the
 * composition root, so without this call it would verify and sign with the pure JavaScript backend (about
 * twenty times slower) and measure something the service never runs. Refuses to go on without the native
 * module unless `BENCH_ALLOW_JS_SECP=1`, so a figure can never silently come from the wrong backend.
 * @param root the tree whose sources the server runs (another checkout for a `--baseline` run)
 */
import path from 'node:path';

export async function useServiceSecp(root?: string): Promise<'native' | 'js'> {
  const file = root
    ? path.join(root, 'src/adapters/crypto/native-secp.ts')
    : '../../src/adapters/crypto/native-secp.js';
  const mod = (await import(file)) as typeof import('../../src/adapters/crypto/native-secp.js');
  const name = mod.useNativeSecpIfAvailable();
  if (name !== 'native' && process.env.BENCH_ALLOW_JS_SECP !== '1')
    throw new Error(
      'libsecp256k1 does not load here: the bench would measure the JavaScript backend (BENCH_ALLOW_JS_SECP=1 to go on)',
    );
  return name;
}
