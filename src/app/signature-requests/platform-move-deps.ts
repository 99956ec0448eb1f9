/** What the platform's timed moves need (activate-due-requests.ts at the activation date, expire-due-requests.ts at the deadline). */
import type { AppDeps } from '../shared/deps.js';

export type PlatformMoveDeps = Pick<AppDeps, 'store' | 'clock' | 'random' | 'secretKey' | 'mail'>;
