/**
 * Processes started together on a fresh database (an orchestrator starting the api and worker roles at
 * once) all start their job engines: none loses a race on creating pg-boss's schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createJobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';

const postgres = (await storeKinds()).find((k) => k.name === 'postgres')!;
const silentLog = pino({ level: 'silent' });

describe('job engines starting together on PostgreSQL', { skip: postgres.skip }, () => {
  it('six engines started at once on a fresh schema all start', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = newSchemaName();
      const stores = await Promise.all(
        Array.from({ length: 6 }, () =>
          openStore({ databaseUrl: schemaUrl(schema), embeddedDir: undefined, now: Date.now }),
        ),
      );
      const engines = stores.map((s) => createJobEngine(s.db, silentLog));
      try {
        const started = await Promise.allSettled(engines.map((e) => e.start()));
        const failures = started.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
        assert.deepEqual(failures, [], `round ${round}: every engine starts`);
      } finally {
        await Promise.allSettled(engines.map((e) => e.stop()));
        await Promise.all(stores.map((s) => s.close()));
        await dropSchema(schema);
      }
    }
  });
});
