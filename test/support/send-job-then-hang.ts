/** Child process for the restart test: sends one job, says so, then waits to be killed. */
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { createJobEngine } from '../../src/adapters/jobs/job-engine.js';
import { openStore } from '../../src/adapters/store/create-store.js';

const [url, dir, queue, payload] = process.argv.slice(2) as [string, string, string, string];
const opened = await openStore({
  databaseUrl: url === '-' ? undefined : url,
  embeddedDir: dir === '-' ? undefined : dir,
  now: Date.now,
});
const engine = createJobEngine(opened.db, pino({ level: 'silent' }));
await engine.start();
await engine.declare([
  {
    name: queue,
    schema: Type.Object({}),
    policy: 'any-number',
    retryLimit: 1,
    retryDelaySeconds: 1,
    retryBackoff: false,
    expireInSeconds: 60,
    handle: async () => undefined,
  },
]);
const id = await engine.send(queue, JSON.parse(payload) as object);
console.log(`sent ${id}`);
setInterval(() => undefined, 1000);
