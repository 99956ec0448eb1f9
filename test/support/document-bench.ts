/** A signature-request bench whose app keeps uploaded files in its own store (as src/runtime.ts wires it). */
import assert from 'node:assert/strict';
import { storeDocumentObjects } from '../../src/adapters/store/document.repository.js';
import type { DocumentObjectStore } from '../../src/app/signature-requests/document/document.port.js';
import { openBench, type Bench } from '../signature-requests/fixture.js';
import { testConfig } from './fixtures.js';
import type { StoreKind } from './stores.js';

export async function openDocumentBench(kind: StoreKind, env: Record<string, string> = {}): Promise<Bench> {
  // The bench opens its store itself: the object store on that database is plugged in once it is open.
  const plugged: { objects?: DocumentObjectStore } = {};
  const on = () => plugged.objects ?? assert.fail('no object store yet');
  const lazy: DocumentObjectStore = {
    begin: (now) => on().begin(now),
    header: (name) => on().header(name),
    chunks: (name, first, last) => on().chunks(name, first, last),
    remove: (name, touchedBefore) => on().remove(name, touchedBefore),
    sweepAbandoned: (before) => on().sweepAbandoned(before),
  };
  const documents = { objects: lazy, retentionMs: 86_400_000 };
  const b = await openBench(kind, { documents }, { config: testConfig(env) });
  plugged.objects = storeDocumentObjects(b.s.db);
  return b;
}
