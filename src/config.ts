/**
 * The one reader of `process.env`. The settings are TypeBox schemas grouped by role (process, store, http,
 * bitcoin, mail, identity, documents); each property is one Config field and names its variable, its
 * default and, where a check says more than a type, what a good value is. `loadConfig` reads every
 * variable, checks all of them against their schemas, and returns a frozen Config; on bad values it throws
 * a ConfigError listing everything that is wrong, so the process stops at start with one readable message.
 * The defaults give the embedded run (PGlite, regtest node, no SMTP).
 *
 * Adding a setting is one property in its role's schema below (the Config type follows from the schemas);
 * a rule between settings goes to CROSS_CHECKS. Test hooks are not settings: they are read by
 * `loadTestHooks`, apart from Config.
 */
import path from 'node:path';
import {
  FormatRegistry,
  Type,
  type StaticDecode,
  type StringOptions,
  type TObject,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

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

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** A variable's value, or undefined when unset or empty. */
const given = (env: Env, name: string): string | undefined => (env[name] === '' ? undefined : env[name]);

/** What a setting's schema carries besides its type: its variable, its default, the words of its error. */
interface SettingOptions {
  /** The environment variable. */
  readonly env: string;
  /** The text used when the variable is unset (a function when it depends on other variables). */
  readonly fallback?: string | ((env: Env) => string | undefined);
  /** How the text becomes the value checked: a number, a boolean, or the text itself. */
  readonly read?: 'integer' | 'boolean';
  /** The error: `<env> must be <expected>, got "<value>"` (the value's URL password hidden). */
  readonly expected?: string;
  /** An error message of its own, without the value (secrets). */
  readonly message?: string;
}

// ---- the kinds of settings ----

const int = (env: string, fallback: number | ((env: Env) => number), minimum: number, maximum: number) =>
  Type.Integer({
    minimum,
    maximum,
    env,
    read: 'integer',
    fallback: typeof fallback === 'number' ? String(fallback) : (e: Env) => String(fallback(e)),
    expected: `an integer from ${minimum} to ${maximum}`,
  });

const bool = (env: string, fallback: boolean) =>
  Type.Boolean({ env, read: 'boolean', fallback: String(fallback), expected: 'true or false' });

const oneOf = <const T extends readonly string[]>(env: string, values: T, fallback: T[number]) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { env, fallback, expected: `one of ${values.join(', ')}` },
  ) as unknown as TUnsafe<T[number]>; // the union's type, told to TypeScript

const text = (
  env: string,
  fallback: string | ((env: Env) => string),
  options: Partial<SettingOptions> & StringOptions = {},
) => Type.String({ env, fallback, ...options });

/** A setting that may be left unset (`undefined`). */
const optional = <T extends TSchema>(schema: T, env: string, options: Partial<SettingOptions> = {}) =>
  Type.Union([schema, Type.Undefined()], { env, ...options });

/** A text turned into another value (`decode`); `inner` checks the text. */
const decoded = <T extends TSchema, R>(inner: T, decode: (v: StaticDecode<T>) => R) =>
  Type.Transform(inner)
    .Decode((v) => decode(v as StaticDecode<T>))
    .Encode(() => {
      throw new Error('settings are only read');
    });

/** A format of TypeBox's registry, checked by `check` (registered once). */
function format(name: string, check: (v: string) => boolean): string {
  const key = `config-${name}`;
  if (!FormatRegistry.Has(key)) FormatRegistry.Set(key, check);
  return key;
}

/** A URL of one of `protocols`, kept without trailing slashes; unset without a fallback. */
function url(env: string, protocols: readonly string[]) {
  const isUrl = format(`url:${protocols.join(',')}`, (v) => URL.canParse(v) && protocols.includes(new URL(v).protocol));
  const expected = `a ${protocols.join(' or ')} URL`;
  return optional(
    decoded(Type.String({ format: isUrl }), (v) => v.replace(/\/+$/, '')),
    env,
    { expected },
  );
}

/** A URL of one of `protocols` with a default, kept without trailing slashes. */
function urlOr(env: string, protocols: readonly string[], fallback: (env: Env) => string) {
  const isUrl = format(`url:${protocols.join(',')}`, (v) => URL.canParse(v) && protocols.includes(new URL(v).protocol));
  return decoded(Type.String({ format: isUrl, env, fallback, expected: `a ${protocols.join(' or ')} URL` }), (v) =>
    v.replace(/\/+$/, ''),
  );
}

/** A base URL of one of `protocols` (a name is appended to it): kept ending in one `/`; unset without a fallback. */
function baseUrl(env: string, protocols: readonly string[]) {
  const isUrl = format(`url:${protocols.join(',')}`, (v) => URL.canParse(v) && protocols.includes(new URL(v).protocol));
  return optional(
    decoded(Type.String({ format: isUrl }), (v) => `${v.replace(/\/+$/, '')}/`),
    env,
    { expected: `a ${protocols.join(' or ')} URL` },
  );
}

/**
 * An http(s) URL without credentials, query or fragment whose host a CSP source may name (its origin goes
 * into a page's connect-src), kept without trailing slashes; unset without a fallback.
 */
function cspUrl(env: string) {
  const isCspUrl = format('csp-url', (v) => {
    if (!URL.canParse(v)) return false;
    const u = new URL(v);
    return (
      /^https?:$/.test(u.protocol) &&
      u.username === '' &&
      u.password === '' &&
      u.search === '' &&
      u.hash === '' &&
      /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(u.hostname)
    );
  });
  return optional(
    decoded(Type.String({ format: isCspUrl }), (v) => new URL(v).href.replace(/\/+$/, '')),
    env,
    { expected: 'an http(s) URL without credentials, query or fragment' },
  );
}

/** The lowercased, trimmed, non-empty items of a comma list. */
const commaList = (raw: string): string[] =>
  raw
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');

/** 4 or 6 for an IPv4 or IPv6 address, else 0 (the URL parser checks IPv6 syntax). */
function ipVersion(address: string): 4 | 6 | 0 {
  const octets = address.split('.');
  if (octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return 4;
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return 0;
  return URL.canParse(`http://[${address}]/`) ? 6 : 0;
}

function isAddressOrCidr(text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/');
  const version = ipVersion(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

const isOff = (raw: string) => ['0', 'false', 'no'].includes(raw.toLowerCase());

/** TRUST_PROXY: `false`, a hop count, or a comma list of addresses/CIDRs; `true` (every hop) is refused. */
const trustProxy = (env: string) =>
  decoded(
    Type.String({
      env,
      fallback: 'false',
      format: format('trust-proxy', (raw) => {
        const v = raw.trim();
        return isOff(v) || /^\d{1,2}$/.test(v) || v.split(',').every((p) => isAddressOrCidr(p.trim()));
      }),
      expected: 'false, a hop count, or a comma list of proxy addresses/CIDRs (true would trust every hop)',
    }),
    (raw): TrustProxy => {
      const v = raw.trim();
      if (isOff(v)) return false;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      return v.split(',').map((p) => p.trim());
    },
  );

/** A comma list of http(s) URLs without credentials (the safe fetch refuses those). */
const urlList = (env: string) =>
  decoded(
    Type.String({
      env,
      fallback: '',
      format: format('url-list', (raw) =>
        items(raw).every((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) && !new URL(u).username),
      ),
      expected: 'http(s) URLs without credentials',
    }),
    items,
  );

/** A comma list of postgres:// URLs (read replicas). */
const postgresUrlList = (env: string) =>
  decoded(
    Type.String({
      env,
      fallback: '',
      format: format('postgres-url-list', (raw) =>
        items(raw).every((u) => URL.canParse(u) && ['postgres:', 'postgresql:'].includes(new URL(u).protocol)),
      ),
      expected: 'a comma list of postgres:// URLs',
    }),
    items,
  );

function items(raw: string): string[] {
  return raw
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** The network the raw environment names (its default when unset), for defaults that follow it. */
const networkOf = (env: Env) => given(env, 'BITCOIN_NETWORK') ?? 'regtest';
const onRegtest = (env: Env) => networkOf(env) === 'regtest';

/** PUBLIC_URL's default and its host (for SERVICE_EMAIL's default). */
const localUrl = (env: Env, portVar: string, port: number) => {
  const chosen = given(env, portVar);
  const valid = chosen !== undefined && /^\d{1,5}$/.test(chosen) && Number(chosen) <= 65535;
  return `http://localhost:${valid ? chosen : port}`;
};
function publicHost(env: Env): string {
  const raw = given(env, 'PUBLIC_URL') ?? localUrl(env, 'PORT', 3000);
  return URL.canParse(raw) ? new URL(raw).hostname : 'localhost';
}

// ---- the settings, by role ----

/** The process: where its files are, what it logs, how it stops, its secret. */
const PROCESS = Type.Object({
  dataDir: decoded(text('DATA_DIR', './data'), (v) => path.resolve(v)),
  logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
  secretKey: optional(Type.String({ minLength: 32 }), 'SECRET_KEY', {
    message: 'SECRET_KEY must be at least 32 characters',
  }),
});

/** The store: PostgreSQL when DATABASE_URL is set, else the embedded store under DATA_DIR. */
const STORE = Type.Object({
  databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
  /** How long `--role api|worker` waits for an unreachable database at start, seconds. */
  databaseWaitSeconds: int('DATABASE_WAIT_SECONDS', 60, 0, 3600),
  /** Streaming read replicas of DATABASE_URL's primary: the read-only routes read there (docs/replicas.md). */
  databaseReplicaUrls: postgresUrlList('DATABASE_REPLICA_URLS'),
  /** A replica further behind its primary than this, in seconds, is skipped. */
  databaseReplicaMaxLagSeconds: int('DATABASE_REPLICA_MAX_LAG_SECONDS', 10, 1, 3600),
  /** Named prepared statements; off behind a pooler in transaction mode that does not keep them (PgBouncer < 1.21). */
  databasePreparedStatements: bool('DATABASE_PREPARED_STATEMENTS', true),
});

/** The HTTP API: where it listens, its public address, limits, proxies, processes. */
const HTTP = Type.Object({
  port: int('PORT', 3000, 0, 65535),
  host: text('HOST', '0.0.0.0'),
  publicUrl: urlOr('PUBLIC_URL', ['http:', 'https:'], (env) => localUrl(env, 'PORT', 3000)),
  bodyLimitBytes: int('BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
  rateLimitPublicPerMinute: int('RATE_LIMIT_PUBLIC_PER_MINUTE', 600, 1, 10_000_000),
  rateLimitAuthPerMinute: int('RATE_LIMIT_AUTH_PER_MINUTE', 30, 1, 10_000_000),
  /** Failed authentications per minute from one client address, whatever the login. */
  rateLimitAuthPerAddressPerMinute: int('RATE_LIMIT_AUTH_PER_ADDRESS_PER_MINUTE', 300, 1, 10_000_000),
  /** Proxies whose `X-Forwarded-*` are believed: none, a hop count, or their addresses/CIDRs (Fastify's `trustProxy`). */
  trustProxy: trustProxy('TRUST_PROXY'),
  allowPrivateUrls: bool('ALLOW_PRIVATE_URLS', false),
  /** Bytes of batch tree levels an API process keeps resident for receipts (RECEIPT_LEVELS_MB). */
  receiptLevelsBytes: decoded(int('RECEIPT_LEVELS_MB', 0, 0, 4096), (mb) => mb * 1024 * 1024),
  /** API processes of `--role api` on one port (0: one per core; more than 1 needs DATABASE_URL). */
  apiProcesses: int('API_PROCESSES', 1, 0, 1024),
  /**
   * Worker threads per API process verifying signature anchors' signatures (0, the default: on the event
   * loop). Worth it where a core is idle beside a busy API process (docs/performance.md).
   */
  verifyThreads: int('VERIFY_THREADS', 0, 0, 64),
  /** `GET /v1/receipt/{id}` answers 302 to the static receipt once written. */
  receiptRedirect: bool('RECEIPT_REDIRECT', false),
  /** The transparency log (docs/transparency-log.md): sequenced, served under /log/; off, nothing is logged. */
  transparencyLog: bool('TRANSPARENCY_LOG', true),
  /**
   * The block explorer the verification page may ask whether a block is in the best chain (an Esplora API
   * base such as https://mempool.space/api); its origin joins the page's CSP connect-src.
   */
  verifyExplorerUrl: cspUrl('VERIFY_EXPLORER_URL'),
});

/** Bitcoin: the node, the network, batching and fees. */
const BITCOIN = Type.Object({
  bitcoinRpcUrl: url('BITCOIN_RPC_URL', ['http:', 'https:']),
  bitcoinNetwork: oneOf('BITCOIN_NETWORK', ['mainnet', 'testnet', 'signet', 'regtest'], 'regtest'),
  batchIntervalSeconds: int('BATCH_INTERVAL_SECONDS', (env) => (onRegtest(env) ? 5 : 3 * 3600), 1, 7 * 24 * 3600),
  // The embedded store runs inside this process: a 1,000,000-anchor batch peaks near 6 GB there.
  batchMaxSize: int('BATCH_MAX_SIZE', (env) => (given(env, 'DATABASE_URL') ? 1_000_000 : 100_000), 1, 10_000_000),
  confirmationsRequired: int('CONFIRMATIONS_REQUIRED', 6, 1, 100),
  feeRateSatVb: int('FEE_RATE_SAT_VB', (env) => (onRegtest(env) ? 2 : 10), 1, 10_000),
  feeCapSatVb: int('FEE_CAP_SAT_VB', (env) => (onRegtest(env) ? 50 : 200), 1, 100_000),
  bumpAfterBlocks: int('BUMP_AFTER_BLOCKS', 3, 1, 1000),
  reorgWatchDepth: int('REORG_WATCH_DEPTH', 100, 6, 10_000),
  regtestBlockIntervalSeconds: int('REGTEST_BLOCK_INTERVAL_SECONDS', 5, 0, 3600),
  /** How often SENT batches are checked against the chain. */
  confirmPollSeconds: int('CONFIRM_POLL_SECONDS', (env) => (onRegtest(env) ? 2 : 60), 1, 3600),
});

/** E-mail and SMS: the transports and the sender shown. */
const MAIL = Type.Object({
  smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
  /** Sender name of e-mails and SMS when a request's vars give no `serviceName`. */
  serviceName: text('SERVICE_NAME', 'proofseal', {
    pattern: '^[^\\r\\n<>"]*$',
    message: 'SERVICE_NAME must not contain line breaks, <, > or "',
  }),
  /** Sender address of e-mails when a request's vars give no `serviceEmail`. */
  serviceEmail: text('SERVICE_EMAIL', (env) => `no-reply@${publicHost(env)}`, {
    pattern: '^[^\\s@<>"]+@[^\\s@<>"]+$',
    message: 'SERVICE_EMAIL must be an e-mail address',
  }),
  /** Domains a request's `serviceEmail` var may use besides SERVICE_EMAIL's (a comma list). */
  mailSenderDomains: decoded(
    text('MAIL_SENDER_DOMAINS', '', {
      format: format('domain-list', (raw) => commaList(raw).every((d) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d))),
      message: 'MAIL_SENDER_DOMAINS must be a comma list of domain names (e.g. acme.example,mail.acme.example)',
    }),
    commaList,
  ),
  /** SMS provider (Twilio's Messages API): `https://<AccountSid>:<AuthToken>@api.twilio.com?from=<number>`. */
  smsUrl: url('SMS_URL', ['http:', 'https:']),
});
/** Identity: the identity server of this service, and the one holding the platform key. */
const IDENTITY = Type.Object({
  identityPort: int('IDENTITY_PORT', 3001, 0, 65535),
  identityPublicUrl: urlOr('IDENTITY_PUBLIC_URL', ['http:', 'https:'], (env) => localUrl(env, 'IDENTITY_PORT', 3001)),
  /** The identity server holding the platform key; unset, this process's own identity keys. */
  platformIdentityUrl: url('PLATFORM_IDENTITY_URL', ['http:', 'https:']),
  /** An identity API token of that server. */
  platformIdentityToken: optional(Type.String(), 'PLATFORM_IDENTITY_TOKEN'),
  /** The platform key's address; unset, the newest live identity key. */
  platformKeyPubKey: optional(Type.String(), 'PLATFORM_KEY_PUBKEY'),
});

/** Documents: the files to sign and the PDFs the service makes and signs (docs/attestation.md). */
const DOCUMENTS = Type.Object({
  /** Largest file to sign accepted by an upload. */
  documentMaxBytes: int('DOCUMENT_MAX_BYTES', 25 * 1024 * 1024, 1, 1024 * 1024 * 1024),
  /** Days a finished request's file is kept. */
  documentRetentionDays: int('DOCUMENT_RETENTION_DAYS', 90, 1, 36_500),
  /** PAdES: the operator's PKCS#12 file and its password; unset, the service's own certificate. */
  pdfSigningP12: optional(Type.String(), 'PDF_SIGNING_P12'),
  pdfSigningP12Password: optional(Type.String(), 'PDF_SIGNING_P12_PASSWORD'),
  /** RFC 3161 time-stamping authorities, tried in order (a comma list); empty, no time-stamp (B-B). */
  tsaUrls: urlList('TSA_URLS'),
  /**
   * An S3-compatible object store for the files to sign
   * (`http(s)://KEY:SECRET@host[:port]/bucket[/prefix]?region=…&style=path|virtual`); unset, the store's own tables.
   */
  objectStoreUrl: url('OBJECT_STORE_URL', ['http:', 'https:']),
  /**
   * Public URL under which the object store's `receipts/` prefix is served (kept ending in `/`): set, settled
   * receipts are written there as static objects; unset, none are.
   */
  staticReceiptsUrl: baseUrl('STATIC_RECEIPTS_URL', ['http:', 'https:']),
});

const ROLES = { PROCESS, STORE, HTTP, BITCOIN, MAIL, IDENTITY, DOCUMENTS } as const;

export type ProcessConfig = Readonly<StaticDecode<typeof PROCESS>>;
export type StoreConfig = Readonly<StaticDecode<typeof STORE>>;
export type HttpConfig = Readonly<StaticDecode<typeof HTTP>>;
export type BitcoinConfig = Readonly<StaticDecode<typeof BITCOIN>>;
export type MailConfig = Readonly<StaticDecode<typeof MAIL>>;
export type IdentityConfig = Readonly<StaticDecode<typeof IDENTITY>>;
export type DocumentsConfig = Readonly<StaticDecode<typeof DOCUMENTS>>;
/** Every setting, one field each (the role types above are its parts). */
export type Config = ProcessConfig &
  StoreConfig &
  HttpConfig &
  BitcoinConfig &
  MailConfig &
  IdentityConfig &
  DocumentsConfig;
export type BitcoinNetwork = Config['bitcoinNetwork'];
/**
 * What the HTTP layer (`buildApp`) is given: the process and HTTP settings, the network its pages name and the
 * largest document an upload takes; not the whole configuration (no store, mail or key settings).
 */
export type ApiConfig = ProcessConfig &
  HttpConfig &
  Pick<BitcoinConfig, 'bitcoinNetwork'> &
  Pick<DocumentsConfig, 'documentMaxBytes'>;
/**
 * What the identity server (`buildIdentityApp`) is given: its own settings, the log level and the HTTP settings
 * it shares with the API (proxy trust, the two rate limits); `host` and `identityPort` to listen.
 */
export type IdentityServerConfig = Pick<ProcessConfig, 'logLevel'> &
  Pick<HttpConfig, 'trustProxy' | 'rateLimitPublicPerMinute' | 'rateLimitAuthPerMinute' | 'host'> &
  Pick<IdentityConfig, 'identityPublicUrl' | 'identityPort'>;
/** What the Bitcoin side of a worker (bitcoin-runtime.ts) reads: its role's settings, where DATA_DIR is, which store. */
export type WorkerBitcoinConfig = BitcoinConfig & Pick<ProcessConfig, 'dataDir'> & Pick<StoreConfig, 'databaseUrl'>;
/**
 * What the mail sender is built from: the mail role's settings (SMTP_URL or `DATA_DIR/mail`, the sender), and
 * PUBLIC_URL for the links the mails carry.
 */
export type MailSenderConfig = MailConfig & Pick<ProcessConfig, 'dataDir'> & Pick<HttpConfig, 'publicUrl'>;

/** Rules between settings: each gives its problem, or undefined. */
const CROSS_CHECKS: readonly ((c: Config) => string | undefined)[] = [
  (c) =>
    c.platformIdentityUrl !== undefined && c.platformIdentityToken === undefined
      ? 'PLATFORM_IDENTITY_TOKEN is required when PLATFORM_IDENTITY_URL is set'
      : undefined,
  (c) =>
    c.bitcoinRpcUrl === undefined && c.bitcoinNetwork !== 'regtest'
      ? `BITCOIN_RPC_URL is required when BITCOIN_NETWORK is ${c.bitcoinNetwork} (the embedded node is regtest only)`
      : undefined,
  (c) =>
    c.smsUrl !== undefined && !smsUrlComplete(c.smsUrl)
      ? 'SMS_URL must be https://<AccountSid>:<AuthToken>@<host>?from=<E.164 sender number>'
      : undefined,
  (c) =>
    c.pdfSigningP12Password !== undefined && c.pdfSigningP12 === undefined
      ? 'PDF_SIGNING_P12_PASSWORD is set without PDF_SIGNING_P12'
      : undefined,
  (c) =>
    c.databaseReplicaUrls.length > 0 && c.databaseUrl === undefined
      ? 'DATABASE_REPLICA_URLS needs DATABASE_URL (the replicas of the embedded store are not a thing)'
      : undefined,
  (c) => (c.feeCapSatVb < c.feeRateSatVb ? 'FEE_CAP_SAT_VB must be at least FEE_RATE_SAT_VB' : undefined),
  (c) =>
    c.objectStoreUrl !== undefined && !objectStoreUrlComplete(c.objectStoreUrl)
      ? 'OBJECT_STORE_URL must be http(s)://KEY:SECRET@host[:port]/bucket[/prefix] (key and secret percent-encoded)'
      : undefined,
  (c) =>
    c.staticReceiptsUrl !== undefined && c.objectStoreUrl === undefined
      ? 'STATIC_RECEIPTS_URL needs OBJECT_STORE_URL (the static receipts are written to that store)'
      : undefined,
  (c) =>
    c.receiptRedirect && c.staticReceiptsUrl === undefined
      ? 'RECEIPT_REDIRECT needs STATIC_RECEIPTS_URL (where the redirect goes)'
      : undefined,
];

/** OBJECT_STORE_URL names a key pair and a bucket (the adapter reads the rest: region, style, prefix). */
function objectStoreUrlComplete(raw: string): boolean {
  const u = new URL(raw);
  return u.username !== '' && u.password !== '' && /^\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/|$)/.test(u.pathname);
}

/** SMS_URL names the account (SID and token) and a sender number (`+` may be left unencoded). */
function smsUrlComplete(raw: string): boolean {
  const u = new URL(raw);
  return u.username !== '' && u.password !== '' && /^[+ ][1-9]\d{6,14}$/.test(u.searchParams.get('from') ?? '');
}

/** Hides the password of a URL so a config error never prints a secret. */
function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]*):[^@]*@/g, '//$1:***@');
}

const optionsOf = (schema: TSchema) => schema as TSchema & SettingOptions;

/** The text of a setting's variable, or its default. */
function rawOf(setting: SettingOptions, env: Env): string | undefined {
  const raw = given(env, setting.env);
  if (raw !== undefined) return raw;
  return typeof setting.fallback === 'function' ? setting.fallback(env) : setting.fallback;
}

/** The text as the value its schema checks (a number or boolean where the setting reads one). */
function valueOf(setting: SettingOptions, raw: string): unknown {
  if (setting.read === 'integer') return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (setting.read === 'boolean') {
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  }
  return raw;
}

/** One role's settings read from `env`: the values, and a problem per setting that is wrong. */
function readRole<T extends TObject>(role: T, env: Env, problems: string[]): StaticDecode<T> {
  const values: Record<string, unknown> = {};
  const raws: Record<string, string | undefined> = {};
  for (const [field, schema] of Object.entries(role.properties)) {
    const setting = optionsOf(schema);
    const raw = rawOf(setting, env);
    raws[field] = raw;
    values[field] = raw === undefined ? undefined : valueOf(setting, raw);
  }
  const wrong = new Set([...Value.Errors(role, values)].map((e) => e.path.split('/')[1]!));
  for (const field of wrong) {
    const setting = optionsOf(role.properties[field]!);
    problems.push(setting.message ?? `${setting.env} must be ${setting.expected}, got "${redact(raws[field] ?? '')}"`);
  }
  return wrong.size > 0 ? (values as StaticDecode<T>) : Value.Decode(role, values);
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const parts = Object.values(ROLES).map((role) => readRole(role, env, problems));
  if (problems.length === 0) {
    const whole = Object.assign({}, ...parts) as Config;
    for (const check of CROSS_CHECKS) {
      const problem = check(whole);
      if (problem !== undefined) problems.push(problem);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(Object.assign({}, ...parts) as Config);
}

/** Every setting: its variable and the Config field it fills (the README's settings table lists the same). */
export function settingNames(): { env: string; field: string }[] {
  return Object.values(ROLES).flatMap((role) =>
    Object.entries(role.properties as Record<string, TSchema>).map(([field, schema]) => ({
      env: optionsOf(schema).env,
      field,
    })),
  );
}

/**
 * Test hooks (the crash tests only), apart from Config: a production process never reads them as settings.
 * `crashAfterBroadcast`: the worker exits right after handing a transaction to the node; `pauseInClose`
 * and `pauseInSend`: it stops inside the closing transaction, or inside the send run before signing, to be
 * killed there.
 */
const TEST_HOOKS = Type.Object({
  crashAfterBroadcast: bool('PROOFSEAL_TEST_CRASH_AFTER_BROADCAST', false),
  pauseInClose: bool('PROOFSEAL_TEST_PAUSE_IN_CLOSE', false),
  pauseInSend: bool('PROOFSEAL_TEST_PAUSE_IN_SEND', false),
});
export type TestHooks = Readonly<StaticDecode<typeof TEST_HOOKS>>;

export function loadTestHooks(env: Env = process.env): TestHooks {
  const problems: string[] = [];
  const hooks = readRole(TEST_HOOKS, env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(hooks);
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
