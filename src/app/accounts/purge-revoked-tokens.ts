import type { AppDeps } from '../shared/deps.js';

/** Revoked tokens are kept this long (for audit), then deleted. */
export const REVOKED_TOKEN_RETENTION_MS = 30 * 24 * 3600 * 1000;

export async function purgeRevokedTokens(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<number> {
  return deps.store.tokens.purgeRevoked(deps.clock.now() - REVOKED_TOKEN_RETENTION_MS);
}
