/**
 * The composition root and the one entry of the binary (bin/proofseal.js only calls {@link main}):
 * `proofseal start --role api|worker|all`, `migrate`, and the operator commands. Wires config → adapters →
 * use cases → HTTP and jobs; nothing else builds adapters. What only some commands use is imported when they run
 * (`start`: {@link serviceModules}), so a client command starts without loading the service (issue 33).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { parse, UsageError } from './cli/args.js';
import { CLIENT_COMMANDS, CLIENT_USAGE } from './cli/client-commands.js';
import { headersToFile } from './cli/headers-command.js';
import { REQUEST_USAGE, requestCommand } from './cli/request-commands.js';
import { startBanner } from './cli/start-banner.js';
import { StoreHeldError } from './adapters/store/embedded-lock.js';
import { StoreUnreachableError } from './adapters/store/store-unreachable.js';
import { OperatorSocketError } from './adapters/system/operator-socket.js';
import { credentialsPath } from './adapters/system/credentials-file.js';
import {
  ConfigError,
  loadCliEnv,
  loadConfig,
  type Config,
  type HttpConfig,
  type ProcessConfig,
  type Role,
  type StoreConfig,
} from './config.js';
import { DomainError } from './core/errors.js';
import { isOperatorCommand, runOperatorCommand } from './operator-runtime.js';
import type { Runtime } from './runtime.js';

const USAGE = `usage: proofseal <command>
  start [--role api|worker|all|identity]   run the service (default role: all = api + worker + identity server)
        [--processes N]           with --role api: N API processes on one port (0: one per core; needs DATABASE_URL)
  migrate                         apply database migrations and exit
  account create --email E --password P [--first-name F] [--last-name L]
  account update [--email E] --first-name F --last-name L   the name signers see as the requester's (without
                                  --email: the default run's own account)
  token create --email E [--name N] | token revoke --token T | --id ID
  identity key create --name N --cn CN [--o --ou --l --c --email] [--expires YYYY-MM-DD] | key list | key revoke --pubkey P
  identity token create [--name N] | identity token revoke --token T | --id ID
  attestations [--json] | attestations repair   kept attestations and signed copies whose bundle lacks SPV data
                                  the request's bundle now has | make them again and mail them again
  headers [--from HEIGHT] [--out FILE]   the headers file \`verify --headers\` takes, read from the service's node
                                  (from the lowest block a batch is in, to the tip)
  wallet [--json] | wallet import <txid>   the anchoring address, balance, network | register a deposit (fallback:
                                  the worker finds deposits in new blocks)
  (with the service running on the embedded store, these operator commands run inside it)
  outbox mail [--limit N] [--json] | outbox mail <id> [--html]   e-mails sent, or kept by the default run
  outbox sms [--limit N] [--json]  SMS waiting or kept (no SMS_URL: one-time passwords are read here)
  log key                         the transparency log's verifier key (docs/transparency-log.md)
  log verify --log-url URL [--vkey KEY] [--checkpoint FILE] [--save FILE]   the checkpoint's signature, and its
                                  consistency with one kept earlier
  log monitor --log-url URL (--key ADDRESS | --identity TEXT) [--vkey KEY] [--json]   every entry under a key
${REQUEST_USAGE}
${CLIENT_USAGE}`;

export interface Started {
  readonly runtime: Runtime;
  readonly app: FastifyInstance | null;
  stop(): Promise<void>;
}

/**
 * The modules a started service needs, loaded by `start` only: a client or operator command never loads the
 * store, the HTTP server, the Bitcoin node or the PDF library (issue 33: a client command's start cost).
 */
async function serviceModules() {
  const [bitcoin, runtime, credentials, credentialsFile, web, identity, http, health, jobs, operator] =
    await Promise.all([
      import('./bitcoin-runtime.js'),
      import('./runtime.js'),
      import('./cli/local-credentials.js'),
      import('./adapters/system/credentials-file.js'),
      import('./adapters/web/web-assets.js'),
      import('./identity/app.js'),
      import('./http/app.js'),
      import('./http/routes/health.route.js'),
      import('./jobs/index.js'),
      import('./operator-runtime.js'),
    ]);
  return {
    ...bitcoin,
    ...runtime,
    ...credentials,
    writeCredentialsFile: credentialsFile.writeCredentialsFile,
    loadWebAssets: web.loadWebAssets,
    startIdentityServer: identity.startIdentityServer,
    buildApp: http.buildApp,
    chainReadiness: health.chainReadiness,
    replicaReadiness: health.replicaReadiness,
    jobDefinitions: jobs.jobDefinitions,
    serveOperatorCommands: operator.serveOperatorCommands,
  };
}

/**
 * Starts a process of the given role; resolves once it serves (api) and works jobs (worker).
 * `onStarted` runs before "proofseal started" is logged: whoever waits for that line (a supervisor, a
 * test) may signal the process at once, so the signal handlers must be in place by then.
 * The default run (role all) then prints its banner (./cli/start-banner.ts), with the credentials on a first start.
 */
export async function startService(
  config: Config,
  role: Role,
  onStarted?: (started: Started) => void,
): Promise<Started> {
  const m = await serviceModules();
  const waitSeconds = role === 'api' || role === 'worker' ? config.databaseWaitSeconds : 0;
  const nodeStarting = m.startEmbeddedNode(config, role);
  const runtime = await m.openRuntime(config, { waitSeconds }).catch(async (err: unknown) => {
    await m.stopStarted(nodeStarting);
    throw err;
  });
  const bitcoin = await m.openBitcoin(runtime, role, nodeStarting).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  const chain = bitcoin.chain;
  // One composition for the jobs and the API: what a job keeps for ever (attestations, signed copies) is made with
  // the same dependencies as what the API serves.
  const deps = { ...runtime.deps, ...(chain && { chain }) };
  if ((role === 'worker' || role === 'all') && !chain) {
    await bitcoin.close();
    await runtime.close();
    throw new Error(`a ${role} process works the Bitcoin jobs and needs a node: none was opened`);
  }
  const defs = [...m.jobDefinitions(deps, { mailer: runtime.mailer }), ...bitcoin.jobs];
  await runtime.jobs.declare(defs);
  let app: FastifyInstance | null = null;
  if (role === 'worker' || role === 'all') await runtime.jobs.work(defs);
  let identityApp: FastifyInstance | null = null;
  const firstStart =
    role === 'all'
      ? await m.bootstrapLocalCredentials(
          { ...m.identityDepsOf(runtime), jobs: runtime.jobs, saveCredentials: m.writeCredentialsFile },
          config,
          runtime.log,
        )
      : null;
  if (role === 'identity' || role === 'all')
    identityApp = await m.startIdentityServer(m.identityDepsOf(runtime), config);
  if (role === 'api' || role === 'all') {
    const readiness = {
      store: () => runtime.deps.store.ping(),
      ...(chain && { chain: m.chainReadiness({ store: runtime.deps.store, chain }) }),
      ...(runtime.opened.replicas && { replicas: m.replicaReadiness(runtime.opened.replicas) }),
    };
    const webAssets = m.loadWebAssets();
    if (!webAssets) runtime.log.warn('no browser bundle in dist/web-bundle (npm start builds it): pages not served');
    app = await m.buildApp({ ...deps, readiness }, config, [], { webAssets });
    await app.listen({ port: config.port, host: config.host });
  }
  // The embedded store is this process's: operator commands of other processes run here, through the socket.
  const forget = () => app?.forgetCredentials();
  const operator =
    runtime.opened.db.kind === 'embedded' ? await m.serveOperatorCommands(runtime, bitcoin, forget) : undefined;
  const started: Started = {
    runtime,
    app,
    async stop() {
      await operator?.close();
      if (app) await app.close();
      if (identityApp) await identityApp.close();
      await runtime.close();
      await bitcoin.close();
    },
  };
  onStarted?.(started);
  runtime.log.info(
    {
      role,
      store: runtime.opened.store.kind,
      port: app ? config.port : undefined,
      identityPort: identityApp ? config.identityPort : undefined,
    },
    'proofseal started',
  );
  if (role === 'all' && (firstStart || process.stdout.isTTY === true)) {
    // After every line logged so far: the pretty logs of a terminal are written by worker threads.
    // Fastify's loggers are pino loggers (http/logging.ts).
    await flushLogs([runtime.log, app?.log as Logger | undefined, identityApp?.log as Logger | undefined]);
    const file = credentialsPath(config.dataDir);
    const banner = startBanner({
      apiUrl: config.publicUrl,
      identityUrl: config.identityPublicUrl,
      credentialsFile: existsSync(file) ? file : null,
      firstStart,
    });
    process.stdout.write(`${banner}\n`);
  }
  return started;
}

/** Resolves once each logger has written what it was given (a worker thread's too); never rejects. */
async function flushLogs(logs: readonly (Pick<Logger, 'flush'> | undefined)[]): Promise<void> {
  const given = logs.filter((log) => log !== undefined);
  await Promise.all(given.map((log) => new Promise<void>((resolve) => log.flush(() => resolve()))));
}

function onSignals(started: Started, timeoutMs: number): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    started.runtime.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    setTimeout(() => {
      started.runtime.log.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs).unref();
    started.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        started.runtime.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * How many API processes `start` runs on one port: `--processes N` or API_PROCESSES (0: one per core),
 * for `--role api` only (other roles run one process; the env setting is ignored there).
 * @throws UsageError for a bad count, the flag with another role, or several processes on the embedded store
 */
function apiProcesses(
  config: Pick<HttpConfig, 'apiProcesses'> & Pick<StoreConfig, 'databaseUrl'>,
  role: Role,
  flag: string | undefined,
  apiProcessCount: (requested: number) => number,
): number {
  if (flag !== undefined && !/^\d{1,4}$/.test(flag))
    throw new UsageError(`--processes must be a whole number (0: one per core), got "${flag}"`);
  if (flag !== undefined && role !== 'api') throw new UsageError('--processes applies to --role api only');
  if (role !== 'api') return 1;
  const processes = apiProcessCount(flag === undefined ? config.apiProcesses : Number(flag));
  if (processes > 1 && config.databaseUrl === undefined)
    throw new UsageError('several API processes need DATABASE_URL: the embedded store belongs to one process');
  return processes;
}

/**
 * The usage of one command: its lines of USAGE (a line starting with the command, then the indented lines
 * that continue it), with the client options for the client commands; the whole usage when none matches.
 */
export function usageOf(command: string): string {
  const own: string[] = [];
  const clientOptions: string[] = [];
  let into: string[] | null = null;
  for (const line of USAGE.split('\n').slice(1)) {
    if (/^ {2}\S/.test(line))
      into = line.startsWith(`  ${command} `) ? own : line.startsWith('  client options:') ? clientOptions : null;
    into?.push(line);
  }
  if (own.length === 0) return USAGE;
  const client = command === 'request' || Object.hasOwn(CLIENT_COMMANDS, command);
  return [`usage: proofseal ${command} …`, ...own, ...(client ? clientOptions : [])].join('\n');
}

/** `--help` or `-h` among a command's arguments (before a `--`). */
const asksHelp = (args: string[]) =>
  (args.includes('--') ? args.slice(0, args.indexOf('--')) : args).some((a) => a === '--help' || a === '-h');

/** What marks a folder as a proofseal DATA_DIR: the default run's credentials, the generated secret, the embedded store. */
const DATA_DIR_MARKS = ['credentials.json', 'secret.key', 'pglite'];
const isDataDir = (dir: string) => DATA_DIR_MARKS.some((name) => existsSync(path.join(dir, name)));

/**
 * The DATA_DIR of a command other than `start` when it is the default `./data` (DATA_DIR unset): `./data` when it is
 * a proofseal data folder; else, for a command run from another folder (the `proofseal` command installed from the
 * checkout, README), the `data` folder of the installation it runs from (`<checkout>/data`, where `npm start` keeps
 * the default run's) when that one is. `start` makes its DATA_DIR where it is told: `./data` by default.
 */
export function commandDataDir(command: string, config: Pick<ProcessConfig, 'dataDir'>, home: string): string {
  if (command === 'start' || config.dataDir !== path.resolve('data')) return config.dataDir;
  const installed = path.join(home, 'data');
  return isDataDir(config.dataDir) || !isDataDir(installed) ? config.dataDir : installed;
}

/** The folder of the installation running: the checkout (its bin/, dist/ and src/ are one level down). */
const INSTALLATION = path.resolve(import.meta.dirname, '..');

/**
 * Runs one command. `home` is the installation's folder (bin/proofseal.js gives its own parent), where a
 * command run from elsewhere finds the default run's DATA_DIR ({@link commandDataDir}).
 */
export async function run(
  argv: string[],
  out: (line: string) => void = console.log,
  home: string = INSTALLATION,
): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return out(USAGE);
  if (asksHelp(rest)) return out(usageOf(command));
  const loaded = loadConfig();
  const config = { ...loaded, dataDir: commandDataDir(command, loaded, home) };
  if (command === 'headers')
    return headersToFile(rest, (args, lines) => runOperatorCommand(config, command, args, lines), out);
  if (command === 'log' && rest[0] !== 'key')
    return (await import('./cli/log-command.js')).logCommand(rest, { fetch: fetchLogFile, out });
  if (isOperatorCommand(command)) return runOperatorCommand(config, command, rest, out);
  switch (command) {
    case 'start':
      return startCommand(config, rest);
    case 'request':
      return requestCommand(rest, {
        env: loadCliEnv(),
        dataDir: config.dataDir,
        out,
        adapters: await clientAdapters(),
      });
    case 'seal':
    case 'verify':
    case 'receipt':
    case 'find':
      return CLIENT_COMMANDS[command]!(rest, {
        env: loadCliEnv(),
        dataDir: config.dataDir,
        out,
        adapters: await clientAdapters(),
      });
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

/** The client's adapters (./client-runtime.ts), with libsecp256k1 for the signatures it checks. */
async function clientAdapters() {
  const [client, secp] = await Promise.all([import('./client-runtime.js'), import('./adapters/crypto/native-secp.js')]);
  secp.useNativeSecpIfAvailable();
  return client.clientAdapters();
}

/** `proofseal start [--role R] [--processes N]`: the service, until a signal stops it. */
async function startCommand(config: Config, args: string[]): Promise<void> {
  const { values } = parse(args, { role: { type: 'string', default: 'all' }, processes: { type: 'string' } });
  const role = values.role as string;
  if (!['api', 'worker', 'all', 'identity'].includes(role))
    throw new UsageError(`--role must be api, worker, all or identity, got "${role}"`);
  const [cluster, heap, { createLogger }] = await Promise.all([
    import('./adapters/system/api-cluster.js'),
    import('./adapters/system/heap-tuning.js'),
    import('./runtime.js'),
  ]);
  const processes = apiProcesses(config, role as Role, values.processes as string | undefined, cluster.apiProcessCount);
  if (processes > 1 && !cluster.isClusterWorker()) return cluster.runApiCluster(processes, createLogger(config));
  heap.tuneServiceHeap();
  await startService(config, role as Role, (started) => onSignals(started, config.shutdownTimeoutMs));
}

/** A file of a transparency log over HTTP (proofseal log): its bytes, null on 404. */
async function fetchLogFile(url: string): Promise<Buffer | null> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Exit codes: 1 runtime failure, 2 usage or configuration error, 3 refused by a domain rule. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError) return 2;
  if (err instanceof DomainError) return 3;
  return 1;
}

/** Failures the operator can act on from their message alone: one line, no stack trace. */
const ONE_LINE_ERRORS = [
  UsageError,
  ConfigError,
  DomainError,
  StoreHeldError,
  StoreUnreachableError,
  OperatorSocketError,
];

/**
 * The one entry of the `proofseal` binary, whichever way it starts (`npx proofseal`, `npm start`, the
 * package's `bin` installed elsewhere): bin/proofseal.js only calls this with its arguments. Never rejects:
 * a failure is printed (one line for what the operator can act on, the stack otherwise) and ends the process
 * with its exit code.
 */
export async function main(argv: string[], home: string = INSTALLATION): Promise<void> {
  // DATA_DIR and everything written in it (the embedded store, keys, the operator socket): owner only.
  process.umask(0o077);
  try {
    await run(argv, console.log, home);
  } catch (err: unknown) {
    console.error(ONE_LINE_ERRORS.some((kind) => err instanceof kind) ? `proofseal: ${messageOf(err as Error)}` : err);
    process.exit(exitCodeOf(err));
  }
}

/** What the operator reads: a bad configuration as one line naming every bad setting. */
function messageOf(err: Error): string {
  return err instanceof ConfigError ? `invalid configuration: ${err.problems.join('; ')}` : err.message;
}
