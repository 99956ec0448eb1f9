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
import { httpSigner } from './adapters/identity/http-signer.js';
import { localSigner } from './app/identity/sign-hash.js';
import type { PlatformSigner } from './app/signature-requests/platform-signer.port.js';
import { issuerDomain } from './core/identity/issuer-domain.js';

export interface Runtime {
  readonly config: Config;
  readonly log: Logger;
  readonly opened: OpenedStore;
  readonly jobs: JobEngine;
  readonly deps: AppDeps;
  readonly secretKey: string;
  close(): Promise<void>;
}

/**
 * The platform key for signatures by delegation and sealed audit trails: a remote identity server when
 * PLATFORM_IDENTITY_URL is set, else this process's identity keys (the default run's local key).
 */
function platformSignerOf(config: Config, deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>): PlatformSigner {
  const pubKey = config.platformKeyPubKey;
  if (config.platformIdentityUrl !== undefined && config.platformIdentityToken !== undefined) {
    const signer = httpSigner({ baseUrl: config.platformIdentityUrl, token: config.platformIdentityToken });
    return { signer, issuerDomain: issuerDomain(config.platformIdentityUrl), pubKey };
  }
  const identity = { secretKey: deps.secretKey, publicUrl: config.identityPublicUrl };
  return { signer: localSigner({ ...deps, identity }), issuerDomain: issuerDomain(config.identityPublicUrl), pubKey };
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
  const store = opened.withJobs(jobs.sendOn);
  const deps: AppDeps = {
    store,
    clock: systemClock,
    random: systemRandom,
    jobs,
    httpClient,
    secretKey,
    platformSigner: platformSignerOf(config, { store, clock: systemClock, secretKey }),
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
