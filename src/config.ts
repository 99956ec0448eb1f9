/**
 * The one reader of `process.env`. Parses the environment once, checks every value, and returns a frozen
 * Config; on bad values it throws a ConfigError listing everything that is wrong, so the process stops at
 * start with one readable message. The defaults give the embedded run (PGlite, regtest node, no SMTP).
 */
import path from 'node:path';

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'signet' | 'regtest';
export type Role = 'api' | 'worker' | 'all' | 'identity';
export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. A hop count becomes a function trusting the nearest
 * `hops` addresses (Fastify ignores a bare number): the client address is then the one `hops` steps
 * from this server in `X-Forwarded-For`, which is right only when clients cannot reach the service but
 * through those proxies. A list of proxy addresses has no such condition.
 */
export function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export interface Config {
  readonly port: number;
  readonly identityPort: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly identityPublicUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly bitcoinRpcUrl: string | undefined;
  readonly bitcoinNetwork: BitcoinNetwork;
  readonly batchIntervalSeconds: number;
  readonly batchMaxSize: number;
  readonly confirmationsRequired: number;
  readonly feeRateSatVb: number;
  readonly feeCapSatVb: number;
  readonly bumpAfterBlocks: number;
  readonly reorgWatchDepth: number;
  readonly regtestBlockIntervalSeconds: number;
  readonly secretKey: string | undefined;
  readonly smtpUrl: string | undefined;
  /** Sender name of e-mails and SMS when a request's vars give no `serviceName` (SERVICE_NAME). */
  readonly serviceName: string;
  /** Sender address of e-mails when a request's vars give no `serviceEmail` (SERVICE_EMAIL). */
  readonly serviceEmail: string;
  /** Domains a request's `serviceEmail` var may use besides SERVICE_EMAIL's (MAIL_SENDER_DOMAINS, comma list). */
  readonly mailSenderDomains: readonly string[];
  /** SMS provider (Twilio's Messages API): `https://<AccountSid>:<AuthToken>@api.twilio.com?from=<number>`. */
  readonly smsUrl: string | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly bodyLimitBytes: number;
  readonly rateLimitPublicPerMinute: number;
  /** Bytes of batch tree levels an API process keeps resident for receipts (RECEIPT_LEVELS_MB). */
  readonly receiptLevelsBytes: number;
  readonly rateLimitAuthPerMinute: number;
  /** Failed authentications per minute from one client address, whatever the login (RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE). */
  readonly rateLimitAuthPerAddressPerMinute: number;
  /** Proxies whose `X-Forwarded-*` are believed: none, a hop count, or their addresses/CIDRs (Fastify's `trustProxy`). */
  readonly trustProxy: TrustProxy;
  readonly allowPrivateUrls: boolean;
  readonly shutdownTimeoutMs: number;
  /** How often SENT batches are checked against the chain (CONFIRM_POLL_SECONDS). */
  readonly confirmPollSeconds: number;
  /** Test hook (crash test only): the worker exits right after handing a transaction to the node. */
  readonly crashAfterBroadcast: boolean;
  /** Test hook (close crash test only): the worker stops inside the closing transaction, to be killed there. */
  readonly pauseInClose: boolean;
  /** Test hook (send crash test only): the worker stops inside the send run, before signing, to be killed there. */
  readonly pauseInSend: boolean;
  /** API processes of `--role api` on one port (API_PROCESSES; 0: one per core; more than 1 needs DATABASE_URL). */
  readonly apiProcesses: number;
  /**
   * Worker threads per API process verifying signature anchors' signatures (VERIFY_THREADS; 0, the default:
   * on the event loop). Worth it where a core is idle beside a busy API process (docs/performance.md).
   */
  readonly verifyThreads: number;
  /** How long `--role api|worker` waits for an unreachable database at start, seconds (DATABASE_WAIT_SECONDS). */
  readonly databaseWaitSeconds: number;
  /** The identity server holding the platform key (PLATFORM_IDENTITY_URL); unset, this process's own identity keys. */
  readonly platformIdentityUrl: string | undefined;
  /** An identity API token of that server (PLATFORM_IDENTITY_TOKEN). */
  readonly platformIdentityToken: string | undefined;
  /** The platform key's address (PLATFORM_KEY_PUBKEY); unset, the newest live identity key. */
  readonly platformKeyPubKey: string | undefined;
  /** Largest file to sign accepted by an upload (DOCUMENT_MAX_BYTES) and days a finished request's file is kept (DOCUMENT_RETENTION_DAYS). */
  readonly documentMaxBytes: number;
  readonly documentRetentionDays: number;
  /**
   * An S3-compatible object store for the files to sign (OBJECT_STORE_URL,
   * `http(s)://KEY:SECRET@host[:port]/bucket[/prefix]?region=…&style=path|virtual`); unset, the store's own tables.
   */
  readonly objectStoreUrl: string | undefined;
  /**
   * Public URL under which the object store's `receipts/` prefix is served (STATIC_RECEIPTS_URL, ending in `/`):
   * set, settled receipts are written there as static objects; unset, none are.
   */
  readonly staticReceiptsUrl: string | undefined;
  /** `GET /v1/receipt/{id}` answers 302 to the static receipt once written (RECEIPT_REDIRECT, default false). */
  readonly receiptRedirect: boolean;
  /** PAdES (docs/attestation.md): the operator's PKCS#12 file and its password; unset, the service's own certificate. */
  readonly pdfSigningP12: string | undefined;
  readonly pdfSigningP12Password: string | undefined;
  /** RFC 3161 time-stamping authorities, tried in order (TSA_URLS, comma list); empty, no time-stamp (B-B). */
  readonly tsaUrls: readonly string[];
  /**
   * The block explorer the verification page may ask whether a block is in the best chain (VERIFY_EXPLORER_URL,
   * an Esplora API base such as https://mempool.space/api); its origin joins the page's CSP connect-src.
   */
  readonly verifyExplorerUrl: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** The lowercased, trimmed, non-empty items of a comma list. */
const commaList = (raw: string): string[] =>
  raw
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  str(name: string, fallback: string): string {
    const v = this.env[name];
    return v === undefined || v === '' ? fallback : v;
  }

  optional(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v === '' ? undefined : v;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || n < min || n > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  /** TRUST_PROXY: `false`, a hop count, or a comma list of addresses/CIDRs; `true` (every hop) is refused. */
  trustProxy(name: string): TrustProxy {
    const raw = this.optional(name)?.trim();
    if (raw === undefined || ['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    if (/^\d{1,2}$/.test(raw)) return Number(raw);
    const proxies = raw.split(',').map((p) => p.trim());
    if (proxies.every(isAddressOrCidr)) return proxies;
    this.problems.push(
      `${name} must be false, a hop count, or a comma list of proxy addresses/CIDRs (true would trust every hop), got "${raw}"`,
    );
    return false;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
    return fallback;
  }

  url(name: string, protocols: string[], fallback?: string): string | undefined {
    const raw = this.optional(name) ?? fallback;
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL, got "${redact(raw)}"`);
      return fallback;
    }
  }
}

/** 4 or 6 for an IPv4 or IPv6 address, else 0 (the URL parser checks IPv6 syntax). */
function ipVersion(address: string): 4 | 6 | 0 {
  const octets = address.split('.');
  if (octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return 4;
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return 0;
  try {
    new URL(`http://[${address}]/`);
    return 6;
  } catch {
    return 0;
  }
}

function isAddressOrCidr(text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/');
  const version = ipVersion(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

/** Hides the password of a URL so a config error never prints a secret. */
function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}

export function loadConfig(env: Env = process.env): Config {
  const r = new Reader(env);
  const network = r.oneOf('BITCOIN_NETWORK', ['mainnet', 'testnet', 'signet', 'regtest'] as const, 'regtest');
  const port = r.int('PORT', 3000, 0, 65535);
  const identityPort = r.int('IDENTITY_PORT', 3001, 0, 65535);
  const secretKey = r.optional('SECRET_KEY');
  if (secretKey !== undefined && secretKey.length < 32) r.problems.push('SECRET_KEY must be at least 32 characters');
  const publicUrl = r.url('PUBLIC_URL', ['http:', 'https:'], `http://localhost:${port}`) as string;
  const config: Config = {
    port,
    identityPort,
    host: r.str('HOST', '0.0.0.0'),
    publicUrl,
    identityPublicUrl: r.url('IDENTITY_PUBLIC_URL', ['http:', 'https:'], `http://localhost:${identityPort}`) as string,
    dataDir: path.resolve(r.str('DATA_DIR', './data')),
    databaseUrl: r.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    bitcoinRpcUrl: r.url('BITCOIN_RPC_URL', ['http:', 'https:']),
    bitcoinNetwork: network,
    batchIntervalSeconds: r.int('BATCH_INTERVAL_SECONDS', network === 'regtest' ? 5 : 3 * 3600, 1, 7 * 24 * 3600),
    // The embedded store runs inside this process: a 1,000,000-anchor batch peaks near 6 GB there.
    batchMaxSize: r.int('BATCH_MAX_SIZE', r.optional('DATABASE_URL') ? 1_000_000 : 100_000, 1, 10_000_000),
    confirmationsRequired: r.int('CONFIRMATIONS_REQUIRED', 6, 1, 100),
    feeRateSatVb: r.int('FEE_RATE_SAT_VB', network === 'regtest' ? 2 : 10, 1, 10_000),
    feeCapSatVb: r.int('FEE_CAP_SAT_VB', network === 'regtest' ? 50 : 200, 1, 100_000),
    bumpAfterBlocks: r.int('BUMP_AFTER_BLOCKS', 3, 1, 1000),
    reorgWatchDepth: r.int('REORG_WATCH_DEPTH', 100, 6, 10_000),
    regtestBlockIntervalSeconds: r.int('REGTEST_BLOCK_INTERVAL_SECONDS', 5, 0, 3600),
    secretKey,
    smtpUrl: r.url('SMTP_URL', ['smtp:', 'smtps:']),
    serviceName: r.str('SERVICE_NAME', 'proofseal'),
    serviceEmail: r.str('SERVICE_EMAIL', `no-reply@${new URL(publicUrl).hostname}`),
    mailSenderDomains: commaList(r.str('MAIL_SENDER_DOMAINS', '')),
    smsUrl: r.url('SMS_URL', ['http:', 'https:']),
    logLevel: r.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    bodyLimitBytes: r.int('BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    rateLimitPublicPerMinute: r.int('RATE_LIMIT_PUBLIC_PER_MINUTE', 600, 1, 10_000_000),
    receiptLevelsBytes: r.int('RECEIPT_LEVELS_MB', 0, 0, 4096) * 1024 * 1024,
    rateLimitAuthPerMinute: r.int('RATE_LIMIT_AUTH_PER_MINUTE', 30, 1, 10_000_000),
    rateLimitAuthPerAddressPerMinute: r.int('RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE', 300, 1, 10_000_000),
    trustProxy: r.trustProxy('TRUST_PROXY'),
    allowPrivateUrls: r.bool('ALLOW_PRIVATE_URLS', false),
    shutdownTimeoutMs: r.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    confirmPollSeconds: r.int('CONFIRM_POLL_SECONDS', network === 'regtest' ? 2 : 60, 1, 3600),
    crashAfterBroadcast: r.bool('PROOFSEAL_TEST_CRASH_AFTER_BROADCAST', false),
    pauseInClose: r.bool('PROOFSEAL_TEST_PAUSE_IN_CLOSE', false),
    pauseInSend: r.bool('PROOFSEAL_TEST_PAUSE_IN_SEND', false),
    databaseWaitSeconds: r.int('DATABASE_WAIT_SECONDS', 60, 0, 3600),
    apiProcesses: r.int('API_PROCESSES', 1, 0, 1024),
    verifyThreads: r.int('VERIFY_THREADS', 0, 0, 64),
    platformIdentityUrl: r.url('PLATFORM_IDENTITY_URL', ['http:', 'https:']),
    platformIdentityToken: r.optional('PLATFORM_IDENTITY_TOKEN'),
    platformKeyPubKey: r.optional('PLATFORM_KEY_PUBKEY'),
    documentMaxBytes: r.int('DOCUMENT_MAX_BYTES', 25 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    documentRetentionDays: r.int('DOCUMENT_RETENTION_DAYS', 90, 1, 36_500),
    objectStoreUrl: r.url('OBJECT_STORE_URL', ['http:', 'https:']),
    staticReceiptsUrl: withSlash(r.url('STATIC_RECEIPTS_URL', ['http:', 'https:'])),
    receiptRedirect: r.bool('RECEIPT_REDIRECT', false),
    pdfSigningP12: r.optional('PDF_SIGNING_P12'),
    pdfSigningP12Password: r.optional('PDF_SIGNING_P12_PASSWORD'),
    tsaUrls: tsaUrlsOf(r, r.optional('TSA_URLS')),
    verifyExplorerUrl: explorerUrlOf(r, r.optional('VERIFY_EXPLORER_URL')),
  };
  if (/[\r\n<>"]/.test(config.serviceName)) r.problems.push('SERVICE_NAME must not contain line breaks, <, > or "');
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(config.serviceEmail)) r.problems.push('SERVICE_EMAIL must be an e-mail address');
  if (config.mailSenderDomains.some((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d)))
    r.problems.push('MAIL_SENDER_DOMAINS must be a comma list of domain names (e.g. acme.example,mail.acme.example)');
  if (config.platformIdentityUrl !== undefined && config.platformIdentityToken === undefined)
    r.problems.push('PLATFORM_IDENTITY_TOKEN is required when PLATFORM_IDENTITY_URL is set');
  if (config.bitcoinRpcUrl === undefined && network !== 'regtest') {
    r.problems.push(
      `BITCOIN_RPC_URL is required when BITCOIN_NETWORK is ${network} (the embedded node is regtest only)`,
    );
  }
  if (config.smsUrl !== undefined && !smsUrlComplete(config.smsUrl))
    r.problems.push('SMS_URL must be https://<AccountSid>:<AuthToken>@<host>?from=<E.164 sender number>');
  if (config.pdfSigningP12Password !== undefined && config.pdfSigningP12 === undefined)
    r.problems.push('PDF_SIGNING_P12_PASSWORD is set without PDF_SIGNING_P12');
  if (config.objectStoreUrl !== undefined && !objectStoreUrlComplete(config.objectStoreUrl))
    r.problems.push(
      'OBJECT_STORE_URL must be http(s)://KEY:SECRET@host[:port]/bucket[/prefix] (key and secret percent-encoded)',
    );
  if (config.staticReceiptsUrl !== undefined && config.objectStoreUrl === undefined)
    r.problems.push('STATIC_RECEIPTS_URL needs OBJECT_STORE_URL (the static receipts are written to that store)');
  if (config.receiptRedirect && config.staticReceiptsUrl === undefined)
    r.problems.push('RECEIPT_REDIRECT needs STATIC_RECEIPTS_URL (where the redirect goes)');
  if (config.feeCapSatVb < config.feeRateSatVb) r.problems.push('FEE_CAP_SAT_VB must be at least FEE_RATE_SAT_VB');
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return Object.freeze(config);
}

/** TSA_URLS: a comma list of http(s) URLs without credentials (the safe fetch refuses those). */
function tsaUrlsOf(r: Reader, raw: string | undefined): string[] {
  const urls = (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const bad = urls.filter((u) => !URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol) || new URL(u).username);
  if (bad.length > 0)
    r.problems.push(`TSA_URLS must be http(s) URLs without credentials, got "${bad.map(redact).join(', ')}"`);
  return urls;
}

/** A base URL ending in `/` (a name is appended to it). */
function withSlash(url: string | undefined): string | undefined {
  return url === undefined || url.endsWith('/') ? url : `${url}/`;
}

/** OBJECT_STORE_URL names a key pair and a bucket (the adapter reads the rest: region, style, prefix). */
function objectStoreUrlComplete(raw: string): boolean {
  const u = new URL(raw);
  return u.username !== '' && u.password !== '' && /^\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/|$)/.test(u.pathname);
}

/**
 * VERIFY_EXPLORER_URL: one http(s) URL, no credentials, query or fragment, and a host that a CSP source may
 * name (its origin goes into the verification page's connect-src).
 */
function explorerUrlOf(r: Reader, raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const u = URL.canParse(raw) ? new URL(raw) : null;
  const ok =
    u !== null &&
    /^https?:$/.test(u.protocol) &&
    u.username === '' &&
    u.password === '' &&
    u.search === '' &&
    u.hash === '' &&
    /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(u.hostname);
  if (!ok) {
    r.problems.push(
      `VERIFY_EXPLORER_URL must be an http(s) URL without credentials, query or fragment, got "${redact(raw)}"`,
    );
    return undefined;
  }
  return u.href.replace(/\/+$/, '');
}

/** SMS_URL names the account (SID and token) and a sender number (`+` may be left unencoded). */
function smsUrlComplete(raw: string): boolean {
  const u = new URL(raw);
  return u.username !== '' && u.password !== '' && /^[+ ][1-9]\d{6,14}$/.test(u.searchParams.get('from') ?? '');
}

/** Settings of the command-line client and operator commands (flags override them). */
export interface CliEnv {
  readonly apiUrl: string | undefined;
  readonly identityUrl: string | undefined;
  readonly apiToken: string | undefined;
  readonly login: string | undefined;
  readonly password: string | undefined;
  readonly identityToken: string | undefined;
}

export function loadCliEnv(env: Env = process.env): CliEnv {
  const get = (name: string) => (env[name] === '' ? undefined : env[name]);
  return {
    apiUrl: get('PROOFSEAL_API_URL'),
    identityUrl: get('PROOFSEAL_IDENTITY_URL'),
    apiToken: get('PROOFSEAL_TOKEN'),
    login: get('PROOFSEAL_LOGIN'),
    password: get('PROOFSEAL_PASSWORD'),
    identityToken: get('PROOFSEAL_IDENTITY_TOKEN'),
  };
}
