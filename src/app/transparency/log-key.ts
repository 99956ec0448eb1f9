import { ed25519 } from '@noble/curves/ed25519.js';
import { openSecret, sealSecret } from '../../core/crypto/secret-box.js';
import { verifierKey } from '../../core/tlog/checkpoint.js';
import type { AppDeps } from '../shared/deps.js';
import type { TransparencyDeps } from './transparency.port.js';

/** The `setting` row holding the checkpoint key, sealed under SECRET_KEY. */
export const LOG_KEY_SETTING = 'tlog.checkpoint-key';
const PURPOSE = 'tlog-checkpoint-key';

export interface LogKey {
  /** The Ed25519 secret key (32-byte seed). */
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  /** The verifier key, `<origin>+<key hash>+<base64 key>` (C2SP signed-note). */
  readonly verifierKey: string;
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey'> & { readonly transparency: TransparencyDeps };

/**
 * The log's checkpoint key: made once, on first use, and kept sealed under SECRET_KEY like the service's
 * other keys (the first process to store one wins; the others open it).
 * @throws DomainError UNAUTHORIZED when SECRET_KEY is not the one it was sealed with
 */
export async function loadLogKey(deps: Deps): Promise<LogKey> {
  let sealed = await deps.store.settings.get(LOG_KEY_SETTING);
  if (sealed === null) {
    const made = sealSecret(deps.random.bytes(32), deps.secretKey, PURPOSE, deps.random.bytes(12));
    sealed = await deps.store.settings.putIfAbsent(LOG_KEY_SETTING, made, deps.clock.now());
  }
  const seed = openSecret(sealed, deps.secretKey, PURPOSE);
  const publicKey = ed25519.getPublicKey(seed);
  return { seed, publicKey, verifierKey: verifierKey(deps.transparency.origin, publicKey) };
}
