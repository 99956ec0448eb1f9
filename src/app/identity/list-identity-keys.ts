import type { AppDeps } from '../shared/deps.js';
import type { IdentityKey } from './identity.port.js';

/** Every identity key of this service, live, expired and revoked. */
export async function listIdentityKeys(deps: Pick<AppDeps, 'store'>): Promise<IdentityKey[]> {
  return deps.store.identityKeys.list();
}
