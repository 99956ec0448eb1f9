/** What the owner's operations on a request (remind-signers.ts, update-deadline.ts) take. */
import type { AppDeps } from '../shared/deps.js';
import { type Origin } from './audit.js';
import { type RequestMailDeps } from './request-mails.js';

export type OwnerActionDeps = Pick<AppDeps, 'store'> & RequestMailDeps;

export interface OwnerInput {
  readonly accountId: string;
  readonly id: string;
  readonly actor: string;
  readonly origin?: Origin;
}
