/** A signature-request bench with settings of its own (the bench keeps uploaded files in its store, as src/runtime.ts does). */
import { openBench, type Bench } from '../signature-requests/fixture.js';
import { testConfig } from './fixtures.js';
import type { StoreKind } from './stores.js';

export async function openDocumentBench(kind: StoreKind, env: Record<string, string> = {}): Promise<Bench> {
  return openBench(kind, {}, { config: testConfig(env) });
}
