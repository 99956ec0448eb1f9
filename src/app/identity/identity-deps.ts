import type { AppDeps } from '../shared/deps.js';

/** What the identity use cases need beyond the store: the secret that seals keys and the public address. */
export interface IdentitySettings {
  /** SECRET_KEY: identity keys are sealed with it at rest. */
  readonly secretKey: string;
  /** IDENTITY_PUBLIC_URL, without a trailing slash: the base of every identity URL. */
  readonly publicUrl: string;
}

export type IdentityDeps = Pick<AppDeps, 'store' | 'clock' | 'random'> & { readonly identity: IdentitySettings };
