/**
 * Opening and closing the shared parts of a process (store, job engine, logger), used by the
 * composition root and by the operator commands.
 */
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createJobEngine, type JobEngine } from './adapters/jobs/job-engine.js';
import { fileMailer, smtpMailer } from './adapters/mail/nodemailer-mailer.js';
import { createSafeFetch } from './adapters/net/safe-fetch.js';
import { openStore, type OpenedStore } from './adapters/store/create-store.js';
import { resolveSecretKey, systemClock, systemRandom } from './adapters/system/system.js';
import type { Mailer } from './app/mail/email.port.js';
import type { AppDeps } from './app/shared/deps.js';
import type { Config } from './config.js';
import { logTransport } from './http/logging.js';

export interface Runtime {
  readonly config: Config;
  readonly log: Logger;
  readonly opened: OpenedStore;
  readonly jobs: JobEngine;
  readonly deps: AppDeps;
  readonly secretKey: string;
  /** SMTP when SMTP_URL is set; else mails are kept as .eml files under DATA_DIR/mail. */
  readonly mailer: Mailer;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, opts: { log?: Logger } = {}): Promise<Runtime> {
  const log = opts.log ?? pino({ level: config.logLevel, ...logTransport() });
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
  };
  const smtp = config.smtpUrl ? smtpMailer(config.smtpUrl) : null;
  const mailer = smtp ?? fileMailer(path.join(config.dataDir, 'mail'));
  return {
    config,
    log,
    mailer,
    opened,
    jobs,
    deps,
    secretKey,
    async close() {
      await jobs.stop();
      smtp?.close();
      await opened.close();
    },
  };
}
