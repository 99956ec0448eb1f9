// tier: slow
/**
 * pg-boss 12 migrates only from pg-boss 11's schema, not from 10's, which a database of an earlier proofseal
 * holds: the engine sets 10's schema aside (`<schema>_v10`) and moves the jobs still waiting there into 12's
 * queues, so an upgrade loses no queued e-mail or callback.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createJobEngine } from '../../../src/adapters/jobs/job-engine.js';
import { openStore } from '../../../src/adapters/store/create-store.js';
import { silentLog } from '../../support/fixtures.js';
import { waitUntil } from '../../support/wait.js';
import { dropSchema, newSchemaName, schemaUrl, storeKinds } from '../../support/stores.js';

const kinds = await storeKinds();

/** The columns of pg-boss 10's job table that the move reads, its version table at 10's schema version (24). */
const boss10 = (schema: string) => `
  CREATE SCHEMA ${schema};
  CREATE TABLE ${schema}.version (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz);
  INSERT INTO ${schema}.version (version) VALUES (24);
  CREATE TYPE ${schema}.job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
  CREATE TABLE ${schema}.job (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL, priority integer NOT NULL DEFAULT 0,
    data jsonb, state ${schema}.job_state NOT NULL DEFAULT 'created', retry_limit integer NOT NULL DEFAULT 2,
    singleton_key text);
  INSERT INTO ${schema}.job (name, data, state) VALUES
    ('upgrade.mail', '{"n": 1}', 'created'), ('upgrade.mail', '{"n": 2}', 'retry'),
    ('upgrade.mail', '{"n": 3}', 'completed'), ('upgrade.mail', '{"n": 4}', 'active');`;

for (const kind of kinds) {
  describe(`pg-boss 10's queue on ${kind.name}`, { skip: kind.skip }, () => {
    it("is set aside, and its waiting jobs run in pg-boss 12's queue", async () => {
      const schema = newSchemaName();
      const opened = await openStore({
        databaseUrl: kind.name === 'postgres' ? schemaUrl(schema) : undefined,
        embeddedDir: undefined,
        now: Date.now,
      });
      const bossSchema = opened.db.schema ? `${opened.db.schema}_pgboss` : 'pgboss';
      await opened.db.exec(boss10(bossSchema));
      const engine = createJobEngine(opened.db, silentLog);
      const seen: number[] = [];
      try {
        await engine.start();
        const mail = {
          name: 'upgrade.mail',
          schema: Type.Object({ n: Type.Number() }),
          policy: 'any-number' as const,
          retryLimit: 2,
          retryDelaySeconds: 1,
          retryBackoff: false,
          expireInSeconds: 60,
          handle: async (d: object) => void seen.push((d as { n: number }).n),
        };
        await engine.declare([mail]);
        await engine.work([mail]);
        await waitUntil(() => seen.length === 3, 'the three waiting jobs to run', 30_000);
        assert.deepEqual(seen.sort(), [1, 2, 4], 'created, retry and active ones; not the completed one');
        const left = await opened.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${bossSchema}_v10.job`);
        assert.equal(left[0]!.n, 1, 'the moved jobs are gone from the old schema, the completed one kept');
        await engine.declare([mail]);
        await new Promise((r) => setTimeout(r, 1500));
        assert.equal(seen.length, 3, 'moved once, not at every start');
      } finally {
        await engine.stop();
        await opened.close();
        if (kind.name === 'postgres') await dropSchema(schema);
      }
    });
  });
}
