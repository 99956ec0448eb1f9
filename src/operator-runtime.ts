/**
 * Operator commands (`account`, `token`, `identity`, `wallet`, `outbox`, `migrate`): one table, run either here
 * on a store this process opens, or — when a running service holds the embedded store — inside that
 * service through its operator socket (a second PGlite on the same files would lose data). Part of the
 * composition root. Adding an operator command is one entry in {@link OPERATOR_COMMANDS}.
 */
import type { BitcoinRuntime } from './bitcoin-runtime.js';
import { UsageError } from './cli/args.js';
import { storeHolder } from './adapters/store/embedded-lock.js';
import {
  callOperatorSocket,
  serveOperatorSocket,
  type OperatorReply,
  type OperatorRequest,
} from './adapters/system/operator-socket.js';
import { loadCliEnv, type Config } from './config.js';
import { DomainError, type ErrorCode } from './core/errors.js';
import type { Runtime } from './runtime.js';

type Out = (line: string) => void;

/** Where an operator command runs: a runtime, and the Bitcoin side when it runs inside the service. */
export interface OperatorContext {
  readonly rt: Runtime;
  readonly bitcoin?: BitcoinRuntime;
  readonly passwordFromEnv?: string;
}

type OperatorCommand = (ctx: OperatorContext, args: string[], out: Out) => Promise<void>;

/**
 * Each command loads its modules when it runs: a command replayed through the running service's socket
 * loads none of them in the calling process (nor the store, the Bitcoin side or the PDF library).
 */
export const OPERATOR_COMMANDS: Readonly<Record<string, OperatorCommand>> = {
  migrate: async (_ctx, _args, out) => out('migrations applied'),
  account: async (ctx, args, out) =>
    (await import('./cli/operator-commands.js')).accountCommand(ctx.rt.deps, args, out, ctx.passwordFromEnv),
  token: async (ctx, args, out) => (await import('./cli/operator-commands.js')).tokenCommand(ctx.rt.deps, args, out),
  identity: async (ctx, args, out) => {
    const [{ identityCommand }, { identityDepsOf }] = await Promise.all([
      import('./cli/identity-commands.js'),
      import('./runtime.js'),
    ]);
    return identityCommand(identityDepsOf(ctx.rt), args, out);
  },
  outbox: async (ctx, args, out) => (await import('./cli/outbox-command.js')).outboxCommand(ctx.rt.deps, args, out),
  log: async (ctx, args, out) => (await import('./cli/log-command.js')).logKeyCommand(ctx.rt.deps, args, out),
  attestations: async (ctx, args, out) => {
    const [{ attestationsCommand }, { pdfAttachmentReader }] = await Promise.all([
      import('./cli/attestations-command.js'),
      import('./adapters/pdf/pdf-attachment-reader.js'),
    ]);
    const chain = ctx.bitcoin?.chain;
    return attestationsCommand(
      { ...ctx.rt.deps, ...(chain && { chain }), pdfAttachments: pdfAttachmentReader() },
      args,
      out,
    );
  },
  headers: async (ctx, args, out) => {
    const [{ headersCommand }, { chainForCommand }] = await Promise.all([
      import('./cli/headers-command.js'),
      import('./bitcoin-runtime.js'),
    ]);
    const deps = {
      chain: await chainForCommand(ctx.rt, ctx.bitcoin),
      lowestBlockHeight: () => ctx.rt.deps.store.batches.lowestBlockHeight(),
      network: ctx.rt.config.bitcoinNetwork,
      now: ctx.rt.deps.clock.now,
    };
    return headersCommand(deps, args, out);
  },
  wallet: async (ctx, args, out) => {
    const [{ walletCommand }, { walletForCommand }] = await Promise.all([
      import('./cli/wallet-command.js'),
      import('./bitcoin-runtime.js'),
    ]);
    const wallet = await walletForCommand(ctx.rt, ctx.bitcoin);
    return walletCommand({ ...wallet, utxos: ctx.rt.deps.store.utxos }, args, out);
  },
};

export const isOperatorCommand = (command: string): boolean => Object.hasOwn(OPERATOR_COMMANDS, command);

/**
 * Runs an operator command from the command line: through the running service when it holds the
 * embedded store, else on a store opened here (PostgreSQL, or a free embedded store).
 * @throws UsageError, DomainError as the command does; StoreHeldError when the store is taken meanwhile.
 */
export async function runOperatorCommand(config: Config, command: string, args: string[], out: Out): Promise<void> {
  const passwordFromEnv = loadCliEnv().password;
  if (config.databaseUrl === undefined && storeHolder(config.dataDir)) {
    return replay(await callOperatorSocket(config.dataDir, { command, args, passwordFromEnv }), out);
  }
  const { openRuntime } = await import('./runtime.js');
  const rt = await openRuntime({ ...config, logLevel: 'warn' });
  try {
    await OPERATOR_COMMANDS[command]!({ rt, passwordFromEnv }, args, out);
  } finally {
    await rt.close();
  }
}

function replay(reply: OperatorReply, out: Out): void {
  for (const line of reply.lines) out(line);
  const e = reply.error;
  if (!e) return;
  if (e.kind === 'usage') throw new UsageError(e.message);
  if (e.kind === 'domain') throw new DomainError(e.code as ErrorCode, e.message);
  throw new Error(e.message);
}

/**
 * Serves the operator commands on DATA_DIR/operator.sock, inside the process holding the embedded store.
 * `afterCommand` runs after each one, whatever its outcome (the API forgets remembered logins, so a token
 * revoked or a password changed here is refused at once).
 */
export function serveOperatorCommands(
  rt: Runtime,
  bitcoin: BitcoinRuntime,
  afterCommand: () => void = () => undefined,
): Promise<{ close(): Promise<void> }> {
  return serveOperatorSocket(rt.config.dataDir, async (request) => {
    try {
      return await execute(rt, bitcoin, request);
    } finally {
      afterCommand();
    }
  });
}

async function execute(rt: Runtime, bitcoin: BitcoinRuntime, request: OperatorRequest): Promise<OperatorReply> {
  const lines: string[] = [];
  const run = isOperatorCommand(request.command) ? OPERATOR_COMMANDS[request.command]! : undefined;
  rt.log.info({ command: request.command }, 'operator command');
  try {
    if (!run) throw new UsageError(`unknown operator command "${request.command}"`);
    await run({ rt, bitcoin, passwordFromEnv: request.passwordFromEnv }, request.args, (l) => lines.push(l));
    return { lines };
  } catch (err) {
    return { lines, error: errorReply(rt, err) };
  }
}

function errorReply(rt: Runtime, err: unknown): NonNullable<OperatorReply['error']> {
  if (err instanceof UsageError) return { kind: 'usage', message: err.message };
  if (err instanceof DomainError) return { kind: 'domain', code: err.code, message: err.message };
  rt.log.error({ err }, 'operator command failed');
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}
