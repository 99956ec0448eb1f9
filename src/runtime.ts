/**
 * Opening and closing the shared parts of a process (store, job engine, logger), used by the
 * composition root and by the operator commands.
 */
import { logOriginOf } from './core/tlog/checkpoint.js';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createJobEngine, type JobEngine } from './adapters/jobs/job-engine.js';
import { fileMailer, smtpMailer } from './adapters/mail/nodemailer-mailer.js';
import { createSafeFetch } from './adapters/net/safe-fetch.js';
import { lazyAttestationRenderer } from './adapters/pdf/lazy-attestation-renderer.js';
import { PDF_CHECK_LIMITS, pdfWorkerPool, type PdfWorkerPool } from './adapters/pdf/pdf-worker-pool.js';
import {
  workerDocumentInspector,
  workerSignaturePreparer,
  workerSignedCopyAssembler,
} from './adapters/pdf/pdf-sandbox.js';
import { lazyPadesSigner, lazyTimestampAuthority } from './adapters/pdf/lazy-pades-signer.js';
import { cachedBrandImages } from './adapters/pdf/brand-images.js';
import { parseSmsUrl, twilioSms } from './adapters/sms/twilio-sms.js';
import { openStore, type OpenedStore } from './adapters/store/create-store.js';
import { storeDocumentObjects } from './adapters/store/document.repository.js';
import { parseObjectStoreUrl, s3Client } from './adapters/objects/s3-client.js';
import { s3DocumentObjects } from './adapters/objects/s3-document-objects.js';
import { s3StaticReceipts } from './adapters/objects/s3-static-receipts.js';
import { s3LogObjects } from './adapters/objects/s3-log-objects.js';
import { isConnectionFailure, StoreUnreachableError } from './adapters/store/store-unreachable.js';
import { resolveSecretKey, systemClock, systemRandom } from './adapters/system/system.js';
import type { HttpClient } from './app/shared/http-client.port.js';
import type { IdentityDeps } from './app/identity/identity-deps.js';
import type { Mailer } from './app/mail/email.port.js';
import type { MailSettings } from './app/mail/mail-settings.port.js';
import { createVelocityEngine } from './adapters/templates/velocity-engine.js';
import type { AppDeps } from './app/shared/deps.js';
import type { TransparencyDeps } from './app/transparency/transparency.port.js';
import { useNativeSecpIfAvailable } from './adapters/crypto/native-secp.js';
import type {
  Config,
  DocumentsConfig,
  IdentityConfig,
  MailConfig,
  MailSenderConfig,
  ProcessConfig,
  StoreConfig,
} from './config.js';
import type { Sql } from './adapters/store/sql.js';
import type { DocumentObjectStore } from './app/signature-requests/document/document.port.js';
import { logTransport } from './http/logging.js';
import { httpSigner } from './adapters/identity/http-signer.js';
import { localSigner, PLATFORM_KEY_CACHE_MS } from './app/identity/sign-hash.js';
import type { PlatformSigner } from './app/signature-requests/platform-signer.port.js';
import { issuerDomain } from './core/identity/issuer-domain.js';
import { signatureVerifyPool } from './adapters/system/signature-verify-pool.js';

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

/**
 * The platform key for signatures by delegation and sealed audit trails: a remote identity server when
 * PLATFORM_IDENTITY_URL is set, else this process's identity keys (the default run's local key).
 */
function platformSignerOf(
  config: IdentityConfig,
  deps: Pick<AppDeps, 'store' | 'clock' | 'secretKey'>,
): PlatformSigner {
  const pubKey = config.platformKeyPubKey;
  if (config.platformIdentityUrl !== undefined && config.platformIdentityToken !== undefined) {
    const signer = httpSigner({ baseUrl: config.platformIdentityUrl, token: config.platformIdentityToken });
    return { signer, issuerDomain: issuerDomain(config.platformIdentityUrl), pubKey };
  }
  const identity = { secretKey: deps.secretKey, publicUrl: config.identityPublicUrl };
  const signer = localSigner({ ...deps, identity }, { keyCacheMs: PLATFORM_KEY_CACHE_MS });
  return { signer, inProcess: signer.on, issuerDomain: issuerDomain(config.identityPublicUrl), pubKey };
}

/** The process's logger (pretty on a terminal, JSON lines otherwise; see http/logging.ts). */
export function createLogger(config: Pick<ProcessConfig, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, ...logTransport() });
}

export interface RuntimeOptions {
  readonly log?: Logger;
  /** How long to wait for an unreachable database, seconds (0: fail at once). */
  readonly waitSeconds?: number;
}

/**
 * Opens the store (waiting up to `waitSeconds` for an unreachable PostgreSQL), the job engine and the deps.
 * @throws StoreUnreachableError when the database stays unreachable; StoreHeldError when another
 *   process holds the embedded store.
 */
export async function openRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  useNativeSecpIfAvailable();
  const log = opts.log ?? createLogger(config);
  const secretKey = await resolveSecretKey(config.secretKey, config.dataDir);
  const opened = await openStoreWaiting(config, opts.waitSeconds ?? 0, log);
  const jobs = createJobEngine(opened.db, log);
  try {
    await jobs.start();
  } catch (err) {
    await opened.close();
    throw err;
  }
  // The own identity server (localhost in the default run) is the one private origin users may name.
  const httpClient = createSafeFetch({
    allowPrivateUrls: config.allowPrivateUrls,
    allowedOrigins: [config.identityPublicUrl],
  });
  const store = opened.withJobs(jobs.sendOn);
  const signatureVerifier = config.verifyThreads > 0 ? signatureVerifyPool(config.verifyThreads) : undefined;
  // Users' PDFs are read in worker threads only, under their own heap and time limits (issue 32); the checks
  // of uploads have a thread of their own, so an upload never waits behind a long signed copy.
  const pdfWorkers = pdfWorkerPool();
  const pdfCheckers = pdfWorkerPool(PDF_CHECK_LIMITS);
  const deps: AppDeps = {
    ...(signatureVerifier && { signatureVerifier }),
    store,
    clock: systemClock,
    random: systemRandom,
    jobs,
    httpClient,
    secretKey,
    platformSigner: platformSignerOf(config, { store, clock: systemClock, secretKey }),
    ...(config.smsUrl !== undefined && { sms: twilioSms(parseSmsUrl(config.smsUrl)) }),
    mail: mailSettingsOf(config),
    attestation: {
      renderer: lazyAttestationRenderer(),
      images: cachedBrandImages(httpClient),
      publicUrl: config.publicUrl,
      serviceName: 'proofseal',
      signer: padesSignerOf(config, secretKey, httpClient, pdfWorkers),
      copies: workerSignedCopyAssembler(pdfWorkers),
      // The bundles' Merkle roots are time-stamped by the same operator-chosen authorities (rfc3161Timestamps).
      ...(config.tsaUrls.length > 0 && {
        timestamps: lazyTimestampAuthority(createSafeFetch({ allowPrivateUrls: true }), config.tsaUrls),
      }),
    },
    documents: {
      objects: documentObjectsOf(config, opened.db),
      retentionMs: config.documentRetentionDays * 86_400_000,
      inspector: workerDocumentInspector(pdfCheckers),
    },
    ...staticReceiptsOf(config),
    ...(config.transparencyLog && { transparency: transparencyOf(config) }),
  };
  const { mailer, smtp } = mailSenderOf(config);
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
      await signatureVerifier?.close();
      await pdfWorkers.close();
      await pdfCheckers.close();
      await opened.close();
    },
  };
}

/** The files to sign: in the S3-compatible store of OBJECT_STORE_URL when set, else in the store's own tables. */
function documentObjectsOf(config: Pick<DocumentsConfig, 'objectStoreUrl'>, db: Sql): DocumentObjectStore {
  if (config.objectStoreUrl === undefined) return storeDocumentObjects(db);
  const loc = parseObjectStoreUrl(config.objectStoreUrl);
  return s3DocumentObjects(s3Client(loc), loc.prefix);
}

/** Static settled receipts, written to the object store's `receipts/` prefix when STATIC_RECEIPTS_URL is set. */
function staticReceiptsOf(
  config: Pick<DocumentsConfig, 'objectStoreUrl' | 'staticReceiptsUrl'>,
): Pick<AppDeps, 'staticReceipts'> {
  if (config.staticReceiptsUrl === undefined || config.objectStoreUrl === undefined) return {};
  const loc = parseObjectStoreUrl(config.objectStoreUrl);
  return {
    staticReceipts: { objects: s3StaticReceipts(s3Client(loc), loc.prefix), publicBaseUrl: config.staticReceiptsUrl },
  };
}

/** The transparency log: its origin, and its files written to the object store with the static receipts, when they are. */
function transparencyOf(config: Config): TransparencyDeps {
  const origin = logOriginOf(config.publicUrl);
  if (config.staticReceiptsUrl === undefined || config.objectStoreUrl === undefined) return { origin };
  const loc = parseObjectStoreUrl(config.objectStoreUrl);
  return { origin, objects: s3LogObjects(s3Client(loc), loc.prefix) };
}

/**
 * PAdES signing of attestations: the operator's PKCS#12 or the service's own certificate under SECRET_KEY.
 * TSA_URLS are the operator's own choice, so their client may reach private addresses (a TSA inside the
 * operator's network); the URLs users give keep going through the guarded client above.
 */
function padesSignerOf(
  config: DocumentsConfig & Pick<MailConfig, 'serviceName'>,
  secretKey: string,
  guarded: HttpClient,
  pdfWorkers: PdfWorkerPool,
) {
  return lazyPadesSigner({
    p12Path: config.pdfSigningP12,
    p12Password: config.pdfSigningP12Password,
    tsaUrls: config.tsaUrls,
    secretKey,
    serviceName: config.serviceName,
    tsaHttp: createSafeFetch({ allowPrivateUrls: true }),
    // The CRL URLs come from certificates (the operator's CA, the TSA's): fetched through the SSRF guard.
    revocationHttp: guarded,
    now: () => systemClock.now(),
    // The PDF signed may be the signed copy, which holds a user's document.
    prepare: workerSignaturePreparer(pdfWorkers),
  });
}

/** The mail sender: SMTP when SMTP_URL is set (closed with the runtime), else .eml files under DATA_DIR/mail. */
function mailSenderOf(config: MailSenderConfig): { mailer: Mailer; smtp: ReturnType<typeof smtpMailer> | null } {
  const smtp = config.smtpUrl ? smtpMailer(config.smtpUrl) : null;
  return { mailer: smtp ?? fileMailer(path.join(config.dataDir, 'mail')), smtp };
}

/** The workflow's mail settings: Velocity templates, links under PUBLIC_URL, the configured sender. */
function mailSettingsOf(config: MailSenderConfig): MailSettings {
  return {
    engine: createVelocityEngine(),
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    serviceName: config.serviceName,
    serviceEmail: config.serviceEmail,
    senderDomains: config.mailSenderDomains,
  };
}

/** First retry after 0.5 s, doubling up to 10 s between attempts. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

/**
 * Container orchestrators start the database and the service together: an unreachable database is
 * retried with backoff for `waitSeconds`, each attempt logged on one line; any other failure is final.
 */
async function openStoreWaiting(
  config: StoreConfig & Pick<ProcessConfig, 'dataDir'>,
  waitSeconds: number,
  log: Logger,
): Promise<OpenedStore> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
    try {
      return await openStore({
        databaseUrl: config.databaseUrl,
        embeddedDir: path.join(config.dataDir, 'pglite'),
        now: systemClock.now,
        replicaUrls: config.databaseReplicaUrls,
        replicaMaxLagSeconds: config.databaseReplicaMaxLagSeconds,
        preparedStatements: config.databasePreparedStatements,
      });
    } catch (err) {
      if (!config.databaseUrl || !isConnectionFailure(err)) throw err;
      const unreachable = new StoreUnreachableError(config.databaseUrl, err, waitSeconds);
      if (Date.now() + delay > deadline) throw unreachable;
      log.warn(`database not reachable yet, retrying in ${delay / 1000} s: ${unreachable.message.split(' (')[0]}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The identity server's deps: the runtime's, plus SECRET_KEY (seals its keys) and IDENTITY_PUBLIC_URL. */
export function identityDepsOf(rt: Runtime): IdentityDeps {
  return { ...rt.deps, identity: { secretKey: rt.secretKey, publicUrl: rt.config.identityPublicUrl } };
}
