/**
 * The composition root and the one entry of the binary (bin/proofseal.js only calls {@link main}):
 * `proofseal start --role api|worker|all`, `migrate`, and the operator commands. Wires config → adapters →
 * use cases → HTTP and jobs; nothing else builds adapters.
 */
import type { FastifyInstance } from 'fastify';
import { parse, UsageError } from './cli/args.js';
import { openBitcoin, startEmbeddedNode, stopStarted } from './bitcoin-runtime.js';
import { CLIENT_COMMANDS, CLIENT_USAGE } from './cli/client-commands.js';
import { headersToFile } from './cli/headers-command.js';
import { REQUEST_USAGE, requestCommand } from './cli/request-commands.js';
import { bootstrapLocalCredentials } from './cli/local-credentials.js';
import { writeCredentialsFile } from './adapters/system/credentials-file.js';
import { loadWebAssets } from './adapters/web/web-assets.js';
import { clientAdapters } from './client-runtime.js';
import { startIdentityServer } from './identity/app.js';
import { StoreHeldError } from './adapters/store/embedded-lock.js';
import { StoreUnreachableError } from './adapters/store/store-unreachable.js';
import { OperatorSocketError } from './adapters/system/operator-socket.js';
import { ConfigError, loadCliEnv, loadConfig, type Config, type Role } from './config.js';
import { DomainError } from './core/errors.js';
import { buildApp } from './http/app.js';
import { chainReadiness, replicaReadiness } from './http/routes/health.route.js';
import { jobDefinitions } from './jobs/index.js';
import { isOperatorCommand, runOperatorCommand, serveOperatorCommands } from './operator-runtime.js';
import { createLogger, identityDepsOf, openRuntime, type Runtime } from './runtime.js';
import { apiProcessCount, isClusterWorker, runApiCluster } from './adapters/system/api-cluster.js';
import { tuneServiceHeap } from './adapters/system/heap-tuning.js';
import { useNativeSecpIfAvailable } from './adapters/crypto/native-secp.js';

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
${REQUEST_USAGE}
${CLIENT_USAGE}`;

export interface Started {
  readonly runtime: Runtime;
  readonly app: FastifyInstance | null;
  stop(): Promise<void>;
}

/**
 * Starts a process of the given role; resolves once it serves (api) and works jobs (worker).
 * `onStarted` runs before "proofseal started" is logged: whoever waits for that line (a supervisor, a
 * test) may signal the process at once, so the signal handlers must be in place by then.
 */
export async function startService(
  config: Config,
  role: Role,
  onStarted?: (started: Started) => void,
): Promise<Started> {
  const waitSeconds = role === 'api' || role === 'worker' ? config.databaseWaitSeconds : 0;
  const nodeStarting = startEmbeddedNode(config, role);
  const runtime = await openRuntime(config, { waitSeconds }).catch(async (err: unknown) => {
    await stopStarted(nodeStarting);
    throw err;
  });
  const bitcoin = await openBitcoin(runtime, role, nodeStarting).catch(async (err: unknown) => {
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
  const defs = [...jobDefinitions(deps, { mailer: runtime.mailer }), ...bitcoin.jobs];
  await runtime.jobs.declare(defs);
  let app: FastifyInstance | null = null;
  if (role === 'worker' || role === 'all') await runtime.jobs.work(defs);
  let identityApp: FastifyInstance | null = null;
  if (role === 'identity' || role === 'all') {
    if (role === 'all')
      await bootstrapLocalCredentials(
        { ...identityDepsOf(runtime), jobs: runtime.jobs, saveCredentials: writeCredentialsFile },
        config,
        runtime.log,
      );
    identityApp = await startIdentityServer(identityDepsOf(runtime), config);
  }
  if (role === 'api' || role === 'all') {
    const readiness = {
      store: () => runtime.deps.store.ping(),
      ...(chain && { chain: chainReadiness({ store: runtime.deps.store, chain }) }),
      ...(runtime.opened.replicas && { replicas: replicaReadiness(runtime.opened.replicas) }),
    };
    const webAssets = loadWebAssets();
    if (!webAssets) runtime.log.warn('no browser bundle in dist/web-bundle (npm start builds it): pages not served');
    app = await buildApp({ ...deps, readiness }, config, [], { webAssets });
    await app.listen({ port: config.port, host: config.host });
  }
  // The embedded store is this process's: operator commands of other processes run here, through the socket.
  const forget = () => app?.forgetCredentials();
  const operator =
    runtime.opened.db.kind === 'embedded' ? await serveOperatorCommands(runtime, bitcoin, forget) : undefined;
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
  return started;
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
function apiProcesses(config: Config, role: Role, flag: string | undefined): number {
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

export async function run(argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return out(USAGE);
  if (asksHelp(rest)) return out(usageOf(command));
  const config = loadConfig();
  if (command === 'headers')
    return headersToFile(rest, (args, lines) => runOperatorCommand(config, command, args, lines), out);
  if (isOperatorCommand(command)) return runOperatorCommand(config, command, rest, out);
  switch (command) {
    case 'start': {
      const { values } = parse(rest, { role: { type: 'string', default: 'all' }, processes: { type: 'string' } });
      const role = values.role as string;
      if (!['api', 'worker', 'all', 'identity'].includes(role))
        throw new UsageError(`--role must be api, worker, all or identity, got "${role}"`);
      const processes = apiProcesses(config, role as Role, values.processes as string | undefined);
      if (processes > 1 && !isClusterWorker()) return runApiCluster(processes, createLogger(config));
      tuneServiceHeap();
      await startService(config, role as Role, (started) => onSignals(started, config.shutdownTimeoutMs));
      return;
    }
    case 'request':
      return requestCommand(rest, { env: loadCliEnv(), dataDir: config.dataDir, out, adapters: clientAdapters() });
    case 'seal':
    case 'verify':
    case 'receipt':
    case 'find':
      return CLIENT_COMMANDS[command]!(rest, {
        env: loadCliEnv(),
        dataDir: config.dataDir,
        out,
        adapters: clientAdapters(),
      });
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
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
export async function main(argv: string[]): Promise<void> {
  // DATA_DIR and everything written in it (the embedded store, keys, the operator socket): owner only.
  process.umask(0o077);
  useNativeSecpIfAvailable();
  try {
    await run(argv);
  } catch (err: unknown) {
    console.error(ONE_LINE_ERRORS.some((kind) => err instanceof kind) ? `proofseal: ${messageOf(err as Error)}` : err);
    process.exit(exitCodeOf(err));
  }
}

/** What the operator reads: a bad configuration as one line naming every bad setting. */
function messageOf(err: Error): string {
  return err instanceof ConfigError ? `invalid configuration: ${err.problems.join('; ')}` : err.message;
}
