/**
 * Opening and closing the shared parts of a process (store, job engine, logger), used by the
 * composition root and by the operator commands.
 */
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createJobEngine, type JobEngine } from './adapters/jobs/job-engine.js';
import { createSafeFetch } from './adapters/net/safe-fetch.js';
import { parseSmsUrl, twilioSms } from './adapters/sms/twilio-sms.js';
import { openStore, type OpenedStore } from './adapters/store/create-store.js';
import { resolveSecretKey, systemClock, systemRandom } from './adapters/system/system.js';
import type { AppDeps } from './app/shared/deps.js';
import type { Config } from './config.js';

export interface Runtime {
  readonly config: Config;
  readonly log: Logger;
  readonly opened: OpenedStore;
  readonly jobs: JobEngine;
  readonly deps: AppDeps;
  readonly secretKey: string;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, opts: { log?: Logger } = {}): Promise<Runtime> {
  const log = opts.log ?? pino({ level: config.logLevel });
  const secretKey = await resolveSecretKey(config.secretKey, config.dataDir);
  const opened = await openStore({
    databaseUrl: config.databaseUrl,
    embeddedDir: path.join(config.dataDir, 'pglite'),
    now: systemClock.now,
  });
  const jobs = createJobEngine(opened.db, log);
  try {
    await jobs.start();
  } catch (err) {
    await opened.close();
    throw err;
  }
  const httpClient = createSafeFetch({ allowPrivateUrls: config.allowPrivateUrls });
  const deps: AppDeps = {
    store: opened.withJobs(jobs.sendOn),
    clock: systemClock,
    random: systemRandom,
    jobs,
    httpClient,
    secretKey,
    ...(config.smsUrl !== undefined && { sms: twilioSms(parseSmsUrl(config.smsUrl)) }),
  };
  return {
    config,
    log,
    opened,
    jobs,
    deps,
    secretKey,
    async close() {
      await jobs.stop();
      await opened.close();
    },
  };
}
