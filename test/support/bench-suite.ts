/** The set-up of a test suite on a signature-request bench (test/signature-requests/fixture.ts). */
import { after, before } from 'node:test';
import type { AppDeps } from '../../src/app/shared/deps.js';
import { openBench, type Bench } from '../signature-requests/fixture.js';
import type { StoreKind } from './stores.js';

/**
 * Opens a bench on `kind` before the current suite's tests and closes it after them; `ready` receives it
 * once open. Call it inside `describe`.
 */
export function benchPerSuite(kind: StoreKind, ready: (b: Bench) => void, extra: Partial<AppDeps> = {}): void {
  let b: Bench | undefined;
  before(async () => {
    b = await openBench(kind, extra);
    ready(b);
  });
  after(async () => {
    await b?.close();
  });
}
